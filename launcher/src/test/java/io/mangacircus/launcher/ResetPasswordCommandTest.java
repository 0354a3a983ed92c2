package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.pg.PostgresTarget;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code reset-password} on a stopped reader's database, SQLite or PostgreSQL: the user's sessions and app passwords
 * end with the old password.
 */
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

  @Test
  void resetPasswordOnPostgresqlChangesTheAccountThereAndEndsItsSessions() throws Exception {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    TestPostgres.Database database = TestPostgres.freshDatabase();
    Path passwordFile = data.resolve("db-password");
    Files.writeString(passwordFile, database.password() + "\n");
    Path conf = data.resolve("mangacircus.json");
    Files.writeString(conf, new ObjectMapper().writeValueAsString(Map.of("reader", Map.of(
        "database", database.url(), "databasePasswordFile", passwordFile.toString()))));
    PostgresTarget target = new PostgresTarget(database.host(), database.port(), database.name(), database.user(),
        database.password(), PostgresTarget.SslMode.DISABLE, 2);
    Vertx vertx = Vertx.vertx();
    try {
      try (ReaderStores stores = ReaderStores.openPostgres(vertx, target)) {
        long rita = stores.users().createUser("rita", "old-hash", "reader", now);
        stores.sessions().createSession("cookie", rita, "csrf", now, now.plusSeconds(3600));
      }
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine command = new CommandLine(new ResetPasswordCommand());
      command.setOut(new PrintWriter(out));
      command.setErr(new PrintWriter(err));

      assertThat(command.execute("RITA", "--data", data.resolve("data").toString(), "--conf", conf.toString()))
          .as(err.toString()).isZero();

      try (ReaderStores stores = ReaderStores.openPostgres(vertx, target)) {
        assertThat(stores.users().user("rita")).hasValueSatisfying(
            user -> assertThat(user.passwordHash()).isNotEqualTo("old-hash"));
        assertThat(stores.sessions().session("cookie", now)).isEmpty();
      }
      assertThat(out.toString()).contains("its sessions and app passwords ended");
      assertThat(Files.exists(data.resolve("data/reader.db"))).as("no SQLite file made beside it").isFalse();
    } finally {
      vertx.close().await();
    }
  }
}
