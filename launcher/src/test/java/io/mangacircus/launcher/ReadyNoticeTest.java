package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.accounts.GeneratedPassword;
import io.mangacircus.reader.accounts.NewAdminPassword;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The console's "Ready" block: once, when both the process serves and the reader's accounts are ready. */
class ReadyNoticeTest {

  private static final String URL = "http://127.0.0.1:8080/";
  private static final NewAdminPassword MADE = new NewAdminPassword("admin", "Pw3xAmpLe7secretK9ab");

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final ReadyNotice notice = new ReadyNotice(new PrintStream(printed, true, StandardCharsets.UTF_8),
      false);

  private List<String> lines() {
    return printed.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void aFirstStartPrintsOneFramedBlockWhoseFirstLineSaysWhereWhoAndThePasswordOnceTheAccountIsMade() {
    notice.ready(URL);
    assertThat(lines()).as("the account is made after the services are up: the block waits for it").isEmpty();

    notice.accounts(Optional.of(MADE));

    List<String> lines = lines();
    assertThat(lines.get(0)).isEqualTo(GeneratedPassword.FRAME);
    assertThat(lines.get(1)).isEqualTo("Ready: open " + URL + ", user admin, password " + MADE.password());
    assertThat(lines.get(lines.size() - 1)).isEqualTo(GeneratedPassword.FRAME);
    assertThat(String.join("\n", lines)).contains("/admin/users.html", "bin/mangacircus reset-password admin")
        .doesNotContain("java -jar");
    assertThat(lines).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(GeneratedPassword.FRAME
        .length()));

    notice.ready(URL);
    notice.accounts(Optional.empty());
    assertThat(lines()).as("printed once").isEqualTo(lines);
  }

  @Test
  void accountsReadyBeforeTheLauncherWaitForItsReady() {
    notice.accounts(Optional.of(MADE));
    assertThat(lines()).isEmpty();
    notice.ready(URL);
    assertThat(lines().get(1)).startsWith("Ready: open " + URL + ", user admin, password ");
  }

  @Test
  void withJsonLogLinesTheBlockIsOneJsonLineToo() {
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    ReadyNotice inJson = new ReadyNotice(new PrintStream(json, true, StandardCharsets.UTF_8), true);

    inJson.ready(URL);
    inJson.accounts(Optional.of(MADE));

    List<String> lines = json.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(1);
    io.vertx.core.json.JsonObject line = new io.vertx.core.json.JsonObject(lines.get(0));
    assertThat(line.getString("level")).isEqualTo("WARN");
    assertThat(line.getString("message")).startsWith(GeneratedPassword.FRAME + System.lineSeparator()
        + "Ready: open " + URL + ", user admin, password " + MADE.password());
  }

  @Test
  void aLaterStartSaysOnlyWhereToOpenIt() {
    notice.accounts(Optional.empty());
    notice.ready(URL);
    assertThat(lines()).containsExactly("Ready: open " + URL);
  }

  @Test
  void aPasswordMadeAfterTheBlockIsPrintedAtOnceRatherThanLost() {
    notice.accounts(Optional.empty());
    notice.ready(URL);
    notice.accounts(Optional.of(MADE));
    assertThat(lines()).hasSizeGreaterThan(2).contains("Ready: open " + URL + ", user admin, password "
        + MADE.password());
  }

  @Test
  void theAccountRecordNeverShowsItsPasswordWhenPrintedByMistake() {
    assertThat(MADE.toString()).contains("admin").doesNotContain(MADE.password());
  }
}
