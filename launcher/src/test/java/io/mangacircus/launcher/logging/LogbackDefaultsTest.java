package io.mangacircus.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The Logback set-up built in code: what every process logs through, and an operator's own file taking its place. */
class LogbackDefaultsTest {

  private final LoggerContext context = new LoggerContext();

  @AfterEach
  void clearProperty() {
    System.clearProperty(LogbackDefaults.OWN_FILE_PROPERTY);
    context.stop();
  }

  @Test
  void theProcessLogsThroughTheRedactorToTheConsoleWithoutReadingAnXmlFile() {
    LoggerContext live = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger root = live.getLogger(Logger.ROOT_LOGGER_NAME);

    assertThat(root.getAppender("REDACT")).as("found through META-INF/services").isInstanceOf(RedactingAppender.class);
    assertThat(((RedactingAppender) root.getAppender("REDACT")).getAppender("CONSOLE"))
        .isInstanceOf(ConsoleAppender.class);
    assertThat(root.getAppender("CONSOLE")).as("only behind the redactor").isNull();
    assertThat(LogbackDefaultsTest.class.getResource("/logback.xml")).isNull();
  }

  @Test
  void chattyLibrariesAreQuietAndTheRestLogsAtInfo() {
    assertThat(new LogbackDefaults().configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);

    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
    assertThat(context.getLogger("com.hazelcast.nio.tcp").getEffectiveLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("com.hazelcast.internal.cluster.ClusterService").getEffectiveLevel())
        .isEqualTo(Level.INFO);
    assertThat(context.getLogger("io.netty.channel").getEffectiveLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("io.mangacircus.scraper").getEffectiveLevel()).isEqualTo(Level.INFO);
    RedactingAppender redacting = (RedactingAppender) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("REDACT");
    assertThat(redacting.isStarted()).isTrue();
    assertThat(((ConsoleAppender<?>) redacting.getAppender("CONSOLE")).isStarted()).isTrue();
  }

  @Test
  void anOperatorsOwnLogbackFileIsReadInstead() {
    System.setProperty(LogbackDefaults.OWN_FILE_PROPERTY, "/etc/mangacircus/logback.xml");

    assertThat(new LogbackDefaults().configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);

    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
  }
}
