package io.mangacircus.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs against the shipped Logback set-up ({@link LogbackDefaults}): an event carrying control characters (from an
 * operator or a source) is written as one line with the characters escaped, in the plain pattern and in JSON lines.
 */
class LogEscapingTest {

  private static final String PAYLOAD = "a\u0000b\u001b[31mred\nINJECTED LOG LINE";

  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final RedactingAppender redacting = (RedactingAppender) root.getAppender("REDACT");
  private final ByteArrayOutputStream written = new ByteArrayOutputStream();
  private OutputStreamAppender<ILoggingEvent> output;

  private void writeThrough(Encoder<ILoggingEvent> encoder) {
    encoder.setContext(context);
    encoder.start();
    output = new OutputStreamAppender<>();
    output.setContext(context);
    output.setEncoder(encoder);
    output.setOutputStream(written);
    output.start();
    redacting.addAppender(output);
  }

  /** The encoder of the shipped console appender, rebuilt on a stream the test reads. */
  private PatternLayoutEncoder shippedPattern() {
    ConsoleAppender<ILoggingEvent> console = (ConsoleAppender<ILoggingEvent>) redacting.getAppender("CONSOLE");
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setPattern(((PatternLayoutEncoder) console.getEncoder()).getPattern());
    return encoder;
  }

  @AfterEach
  void detach() {
    if (output != null) {
      redacting.detachAppender(output);
      output.stop();
    }
    MDC.clear();
  }

  private String text() {
    return written.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aMessageWithEscNulAndNewlineIsWrittenAsOneEscapedLine() {
    writeThrough(shippedPattern());

    LoggerFactory.getLogger("io.mangacircus.test").info("[LANE demo] inspected j-1 ({}): 3 chapters", PAYLOAD);

    List<String> lines = text().lines().toList();
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).endsWith("[LANE demo] inspected j-1 (a\\u0000b\\u001b[31mred\\nINJECTED LOG LINE): 3 chapters");
    assertThat(text()).doesNotContain("\u0000", "\u001b", "\r").matches("(?s)[^\n]*\n");
  }

  @Test
  void c1DelBidiAndLineSeparatorsAreEscapedToo() {
    writeThrough(shippedPattern());

    LoggerFactory.getLogger("io.mangacircus.test").warn("title {}", "x\u0085y\u007fz\u202egnp.exe\u2028w\r\tv");

    assertThat(text().lines().toList()).hasSize(1);
    assertThat(text()).contains("title x\\u0085y\\u007fz\\u202egnp.exe\\u2028w\\r\\tv")
        .doesNotContain("\u0085", "\u007f", "\u202e", "\u2028");
  }

  @Test
  void exceptionMessagesAndMdcAreEscapedAndStackFramesStayOnTheirOwnLines() {
    writeThrough(shippedPattern());
    MDC.put("job", "j-1\nFORGED");

    LoggerFactory.getLogger("io.mangacircus.test").error("fetch failed",
        new IllegalStateException("title " + PAYLOAD));

    String text = text();
    assertThat(text).contains("java.lang.IllegalStateException: title a\\u0000b\\u001b[31mred\\nINJECTED LOG LINE")
        .doesNotContain("\u0000", "\u001b");
    assertThat(text.lines()).noneMatch(line -> line.startsWith("INJECTED"))
        .anyMatch(line -> line.startsWith("\tat "));
  }

  @Test
  void jsonLinesCarryTheEscapedTextOnOneLine() {
    writeThrough(new JsonEncoder());

    LoggerFactory.getLogger("io.mangacircus.test").info("title {}", PAYLOAD);

    List<String> lines = text().lines().toList();
    assertThat(lines).hasSize(1);
    assertThat(new JsonObject(lines.get(0)).getString("message"))
        .isEqualTo("title a\\u0000b\\u001b[31mred\\nINJECTED LOG LINE");
  }

  @Test
  void escaperLeavesOrdinaryTextAloneAndNullAsNull() {
    assertThat(LineEscaper.escape("Ōkami 日本語 — \"quoted\" C:\\path")).isEqualTo("Ōkami 日本語 — \"quoted\" C:\\path");
    assertThat(LineEscaper.escape(null)).isNull();
    assertThat(LineEscaper.escape("\u200f\u061c")).isEqualTo("\\u200f\\u061c");
  }
}
