package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.ReaderStores;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code reset-password} on a stopped reader's database: the user's app passwords end with the old password. */
class ResetPasswordCommandTest {

  @TempDir
  Path data;

  @Test
  void resetPasswordEndsTheUsersAppPasswordsAndSaysSo() throws Exception {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    long rita;
    try (ReaderStores stores = ReaderStores.openSqlite(data.resolve("reader.db"))) {
      rita = stores.users().createUser("rita", "x", "reader", now);
      stores.appPasswords().createAppPassword(rita, "Panels", "Abcd", "hash",
          io.mangacircus.reader.store.AppScope.READ, null, now);
    }
    StringWriter out = new StringWriter();
    CommandLine command = new CommandLine(new ResetPasswordCommand());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(new StringWriter()));

    assertThat(command.execute("rita", "--data", data.toString())).isZero();

    try (ReaderStores stores = ReaderStores.openSqlite(data.resolve("reader.db"))) {
      assertThat(stores.appPasswords().appPasswordCandidates("rita", "Abcd")).as("rita's app passwords").isEmpty();
    }
    assertThat(out.toString()).contains("its sessions and app passwords ended");
  }
}
