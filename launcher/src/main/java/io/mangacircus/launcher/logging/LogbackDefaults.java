package io.mangacircus.launcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * MangaCircus's logging set-up, built in code at Logback's start (found through {@code META-INF/services}): one console
 * appender behind {@link RedactingAppender}, plus quieter levels for chatty libraries. Reading the same from an XML file
 * cost ≈ 0.3 s of every start-up (Logback's XML configurator and the JDK's XML parser: ≈ 650 classes); an operator's
 * own file given with {@code -Dlogback.configurationFile} is still read instead (docs/operations.md#logs).
 */
public final class LogbackDefaults extends ContextAwareBase implements Configurator {

  /** The console line: time with offset, level, thread, logger, message. */
  static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{30} - %msg%n";

  /** The system property with which an operator names a Logback configuration file of their own. */
  static final String OWN_FILE_PROPERTY = "logback.configurationFile";

  /** Levels of library loggers that are noisy at INFO, or whose warnings are expected. */
  static final Map<String, Level> LEVELS = Map.of(
      "com.hazelcast", Level.WARN,
      // A pair has two members; Hazelcast's CP subsystem needs three, so its "UNSAFE mode" notice is expected.
      "com.hazelcast.cp.CPSubsystem", Level.ERROR,
      // vertx-micrometer registers some event-bus gauges twice and Micrometer warns once about it; harmless.
      "io.micrometer.core.instrument.MeterRegistry", Level.ERROR,
      "com.hazelcast.internal.cluster.ClusterService", Level.INFO,
      "io.netty", Level.WARN);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(OWN_FILE_PROPERTY) != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("CONSOLE");
    console.setEncoder(encoder);
    console.start();
    RedactingAppender redacting = new RedactingAppender();
    redacting.setContext(context);
    redacting.setName("REDACT");
    redacting.addAppender(console);
    redacting.start();
    LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(redacting);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
