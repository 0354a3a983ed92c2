package io.mangacircus.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.read.ListAppender;
import io.mangacircus.reader.accounts.GeneratedPassword;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** Runs against the shipped Logback set-up ({@link LogbackDefaults}): whatever is logged, no appender ever receives a secret. */
class LogRedactionTest {

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
  private RedactingAppender redacting;

  @BeforeEach
  void attachBehindTheRedactor() {
    redacting = (RedactingAppender) root.getAppender("REDACT");
    captured.setContext(context);
    captured.start();
    redacting.addAppender(captured);
  }

  @AfterEach
  void detach() {
    redacting.detachAppender(captured);
    MDC.clear();
  }

  @Test
  void theRedactorIsTheOnlyAppenderOnTheRootLogger() {
    List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      appenders.add(it.next());
    }

    assertThat(appenders).hasSize(1).allMatch(a -> a instanceof RedactingAppender);
  }

  @Test
  void secretsInMessagesArgumentsMdcAndExceptionsNeverReachAnAppender() {
    org.slf4j.Logger log = LoggerFactory.getLogger("io.mangacircus.test");
    MDC.put("authorization", "Bearer mdc-token-0001");

    log.info("login attempt {} password={} with header Authorization: Bearer {}", "bob", "hunter2", "tok-abc-123");
    log.warn("fetch failed for https://cdn.example/p.jpg?token=qs-token-9&X-Amz-Signature=amzsig77&page=2 cookie: mc_session=s3ss10n");
    log.error("request failed", new IllegalStateException("upstream said 403 for ?signature=sigsig42",
        new RuntimeException("password=innerpw")));

    assertThat(captured.list).hasSize(3);
    StringBuilder everything = new StringBuilder();
    for (ILoggingEvent event : captured.list) {
      everything.append(event.getFormattedMessage()).append(event.getMessage()).append(event.getMDCPropertyMap());
      if (event.getThrowableProxy() != null) {
        everything.append(ThrowableProxyUtil.asString(event.getThrowableProxy()));
      }
    }
    assertThat(everything.toString())
        .doesNotContain("hunter2", "tok-abc-123", "qs-token-9", "amzsig77", "s3ss10n", "sigsig42", "innerpw",
            "mdc-token-0001")
        .contains("login attempt bob", "https://cdn.example/p.jpg", "page=2", "IllegalStateException");
  }

  @Test
  void theGeneratedPasswordNoticeReachesTheAppendersWhole() {
    String password = GeneratedPassword.create();

    GeneratedPassword.notice("first start", "admin", password).lines()
        .forEach(line -> LoggerFactory.getLogger("io.mangacircus.test").warn("{}", line));

    List<String> messages = captured.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(messages).as("the one place a password is meant to be shown")
        .containsSubsequence(GeneratedPassword.FRAME, GeneratedPassword.PASSWORD_LINE, "", "      " + password,
            GeneratedPassword.FRAME);
  }
}
