package io.mangacircus.launcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import io.mangacircus.launcher.config.MangaCircusConfig;
import java.util.Iterator;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/** Applies the {@code log} config section to the Logback set-up of {@link LogbackDefaults}: level and JSON lines. */
public final class LogSetup {

  private LogSetup() {
  }

  /** Sets the root level and, for {@code format: json}, switches every console/file encoder to JSON lines. */
  public static void apply(MangaCircusConfig.Log log) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(log.level().toUpperCase(Locale.ROOT), Level.INFO));
    if (!log.json()) {
      return;
    }
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      if (it.next() instanceof RedactingAppender redacting) {
        for (Iterator<Appender<ILoggingEvent>> inner = redacting.iteratorForAppenders(); inner.hasNext(); ) {
          if (inner.next() instanceof OutputStreamAppender<ILoggingEvent> output) {
            JsonEncoder encoder = new JsonEncoder();
            encoder.setContext(context);
            encoder.start();
            output.stop();
            output.setEncoder(encoder);
            output.start();
          }
        }
      }
    }
  }
}
