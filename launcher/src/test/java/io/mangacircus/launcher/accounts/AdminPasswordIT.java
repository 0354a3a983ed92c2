package io.mangacircus.launcher.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.Main;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.reader.accounts.GeneratedPassword;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin password as an operator meets it on the real jar: the first start prints the generated one once in a
 * frame that says how to change it, and never again; {@code reset-password} replaces a lost one while the reader is
 * stopped, printing the new one once and ending the user's sessions.
 */
@Tag("process")
class AdminPasswordIT {

  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration GRACE = Duration.ofSeconds(30);

  @TempDir
  Path work;

  private JarProcess start(int port, Map<String, String> env) {
    return JarProcess.start(work, env, "all", "--data=" + work.resolve("data"), "--port=" + port,
        "--health-port=" + FreePorts.next());
  }

  private JarProcess resetPassword(String user) {
    return JarProcess.start(work, Map.of(), "reset-password", user, "--data=" + work.resolve("data"));
  }

  private static void stop(JarProcess process) {
    process.terminate();
    assertThat(process.waitForExit(GRACE)).as(process.output()).isZero();
  }

  /**
   * The password in the first start's "Ready" block: printed straight to the console after the start (never through
   * the log), so its lines carry no log prefix; the line to act on first.
   */
  private static String readyPassword(String output, int port) {
    List<String> lines = output.lines().toList();
    int top = lines.indexOf(GeneratedPassword.FRAME);
    assertThat(top).as("a framed block of whole lines (no log prefix) in:\n" + output).isNotNegative();
    int bottom = lines.subList(top + 1, lines.size()).indexOf(GeneratedPassword.FRAME) + top + 1;
    assertThat(bottom).as("the frame is closed").isGreaterThan(top);
    String first = "Ready: open http://127.0.0.1:" + port + "/, user admin, password ";
    assertThat(lines.get(top + 1)).as("the block's first line").startsWith(first);
    String password = lines.get(top + 1).substring(first.length());
    assertThat(password).hasSize(GeneratedPassword.LENGTH).doesNotContain(" ");
    assertThat(String.join("\n", lines.subList(top, bottom + 1))).as("says how to change it")
        .contains("/admin/users.html", "bin/mangacircus reset-password admin").doesNotContain("java -jar");
    assertThat(output.indexOf(GeneratedPassword.FRAME)).as("the block follows the start's log")
        .isGreaterThan(output.indexOf("MangaCircus all started"));
    assertThat(lines.stream().filter(line -> line.contains("[ACCOUNTS]"))).as("one short log line says where it is")
        .singleElement().satisfies(line -> assertThat(line).contains("shown once on the console")
            .doesNotContain(password).hasSizeLessThan(220));
    return password;
  }

  /** The password in a framed notice printed as plain lines (the reset-password command's standard output). */
  private static String printedPassword(String output) {
    return framedPassword(output.lines().toList(), output);
  }

  /** The password in a framed notice: alone on the line after the password line, inside the frame. */
  private static String framedPassword(List<String> lines, String output) {
    int top = lines.indexOf(GeneratedPassword.FRAME);
    assertThat(top).as("a framed block in:\n" + output).isNotNegative();
    int bottom = lines.subList(top + 1, lines.size()).indexOf(GeneratedPassword.FRAME) + top + 1;
    assertThat(bottom).as("the frame is closed").isGreaterThan(top);
    List<String> block = lines.subList(top, bottom + 1);
    int label = block.indexOf(GeneratedPassword.PASSWORD_LINE);
    assertThat(label).as("the block names the password:\n" + String.join("\n", block)).isPositive();
    assertThat(block.get(label + 1)).isBlank();
    String password = block.get(label + 2).trim();
    assertThat(password).hasSize(GeneratedPassword.LENGTH).doesNotContain(" ");
    assertThat(String.join("\n", block)).as("says how to change it")
        .contains("/admin/users.html", "reset-password admin");
    return password;
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }

  @Test
  void theFirstStartPrintsTheGeneratedAdminPasswordOnceInAFrameLaterStartsNeverPrintItAndResetWaitsForTheirStop() {
    int port = FreePorts.next();
    String password;
    try (JarProcess first = start(port, Map.of())) {
      HttpProbe.awaitReady(port);
      // The account is made while the reader already serves (its hash takes about a second): the notice follows.
      await().atMost(Duration.ofSeconds(30)).until(() -> occurrences(first.output(), GeneratedPassword.FRAME) >= 2);
      password = readyPassword(first.output(), port);
      assertThat(occurrences(first.output(), password)).as("printed exactly once").isEqualTo(1);
      assertThat(first.output()).doesNotContain("sign-in word");
      assertThat(ReaderSession.send(port, "POST", "/api/login", new JsonObject().put("username", "admin")
          .put("password", password).encode()).statusCode()).as("the printed password logs in").isEqualTo(200);
      stop(first);
      assertThat(occurrences(first.output(), password)).as("not even at the stop").isEqualTo(1);
    }

    int port2 = FreePorts.next();
    try (JarProcess second = start(port2, Map.of())) {
      HttpProbe.awaitReady(port2);
      await().atMost(Duration.ofSeconds(30)).until(() -> second.output().lines()
          .anyMatch(line -> line.equals("Ready: open http://127.0.0.1:" + port2 + "/")));

      try (JarProcess reset = resetPassword("admin")) {
        assertThat(reset.waitForExit(START)).as(reset.output()).isEqualTo(Main.EXIT_LOCKED);
        assertThat(reset.output()).contains("the reader is running", "reader.lock", "nothing changed")
            .doesNotContain(GeneratedPassword.FRAME);
      }
      // The printed password still logs in: the refused reset changed nothing.
      ReaderSession.login(port2, "admin", password);
      stop(second);
      assertThat(second.output()).doesNotContain(password, GeneratedPassword.PASSWORD_LINE, GeneratedPassword.FRAME);
    }
  }

  @Test
  void resetPasswordNamesAnUnknownUserThenPrintsANewPasswordOnceEndsTheSessionsAndTheOldPasswordNoLongerWorks() {
    int port = FreePorts.next();
    String oldPassword = "the-old-admin-pass";
    ReaderSession before;
    try (JarProcess reader = start(port, Map.of("MANGACIRCUS_ADMIN_PASSWORD", oldPassword))) {
      HttpProbe.awaitReady(port);
      before = ReaderSession.login(port, "admin", oldPassword);
      stop(reader);
    }

    try (JarProcess reset = resetPassword("nobody")) {
      assertThat(reset.waitForExit(START)).as(reset.output()).isEqualTo(Main.EXIT_FAILURE);
      assertThat(reset.output()).contains("no user named 'nobody'", "nothing changed")
          .doesNotContain(GeneratedPassword.FRAME);
    }
    try (JarProcess reset = JarProcess.start(work, Map.of(), "reset-password", "admin",
        "--data=" + work.resolve("elsewhere"))) {
      assertThat(reset.waitForExit(START)).as(reset.output()).isEqualTo(Main.EXIT_FAILURE);
      assertThat(reset.output()).contains("no reader database");
    }
    assertThat(work.resolve("elsewhere")).doesNotExist();

    String newPassword;
    try (JarProcess reset = resetPassword("admin")) {
      assertThat(reset.waitForExit(START)).as(reset.output()).isZero();
      newPassword = printedPassword(reset.output());
      assertThat(occurrences(reset.output(), newPassword)).isEqualTo(1);
    }

    int port2 = FreePorts.next();
    try (JarProcess reader = start(port2, Map.of())) {
      HttpProbe.awaitReady(port2);
      assertThat(ReaderSession.send(port2, "POST", "/api/login", new JsonObject().put("username", "admin")
          .put("password", oldPassword).encode()).statusCode()).as("the old password").isEqualTo(401);
      assertThat(ReaderSession.send(port2, "GET", "/api/me", null, "Cookie", before.cookie()).statusCode())
          .as("a session from before the reset").isEqualTo(401);
      ReaderSession after = ReaderSession.login(port2, "admin", newPassword);
      assertThat(after.get("/api/me").statusCode()).isEqualTo(200);
      stop(reader);
      assertThat(reader.output()).doesNotContain(newPassword);
    }
  }
}
