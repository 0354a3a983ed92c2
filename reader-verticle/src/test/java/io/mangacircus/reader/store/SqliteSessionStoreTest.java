package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.accounts.PasswordHasher;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sessions in {@code reader.db}: found by their token's hash until they expire or end. */
class SqliteSessionStoreTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void sessionsExpireAndEndOnLogout() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      SessionStore sessions = new SqliteSessionStore(db);
      long id = new SqliteUserStore(db).createUser("bob", PasswordHasher.hash("secret-2".toCharArray()), "reader",
          now);
      sessions.createSession("h1", id, "csrf", now, now.plus(Duration.ofHours(1)));

      assertThat(sessions.session("h1", now.plus(Duration.ofMinutes(59)))).hasValueSatisfying(s -> {
        assertThat(s.username()).isEqualTo("bob");
        assertThat(s.role()).isEqualTo("reader");
      });
      assertThat(sessions.session("h1", now.plus(Duration.ofHours(1)))).isEmpty();
      sessions.deleteSession("h1");
      assertThat(sessions.session("h1", now)).isEmpty();
    }
  }
}
