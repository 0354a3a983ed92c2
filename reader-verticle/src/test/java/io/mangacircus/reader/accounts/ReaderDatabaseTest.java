package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReaderDatabaseTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void aNewDatabaseIsMigratedToTheCurrentSchemaAndKeepsItsData() throws Exception {
    Path file = dir.resolve("reader.db");
    try (ReaderDatabase db = ReaderDatabase.open(file)) {
      assertThat(db.schemaVersion()).isEqualTo(ReaderDatabase.SCHEMA);
      db.createUser("Alice", PasswordHasher.hash("secret-1".toCharArray()), "admin", now);
    }
    try (ReaderDatabase again = ReaderDatabase.open(file)) {
      assertThat(again.user("alice")).as("user names are case-insensitive").isPresent();
      assertThat(again.countAdmins()).isEqualTo(1);
      assertThat(again.schemaVersion()).isEqualTo(ReaderDatabase.SCHEMA);
    }
  }

  @Test
  void sessionsExpireAndEndOnLogout() throws Exception {
    try (ReaderDatabase db = ReaderDatabase.open(dir.resolve("reader.db"))) {
      long id = db.createUser("bob", PasswordHasher.hash("secret-2".toCharArray()), "reader", now);
      db.createSession("h1", id, "csrf", now, now.plus(Duration.ofHours(1)));

      assertThat(db.session("h1", now.plus(Duration.ofMinutes(59)))).hasValueSatisfying(s -> {
        assertThat(s.username()).isEqualTo("bob");
        assertThat(s.role()).isEqualTo("reader");
      });
      assertThat(db.session("h1", now.plus(Duration.ofHours(1)))).isEmpty();
      db.deleteSession("h1");
      assertThat(db.session("h1", now)).isEmpty();
    }
  }

  @Test
  void aFileThatIsNotAReaderDatabaseIsNamedAndLeftAlone() throws Exception {
    Path file = dir.resolve("reader.db");
    Files.writeString(file, "this is not sqlite, it is a note somebody saved here by mistake\n".repeat(20));
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> ReaderDatabase.open(file)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("reader.db");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }
}
