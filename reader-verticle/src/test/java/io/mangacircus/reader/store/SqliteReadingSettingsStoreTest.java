package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading settings in a real reader.db: per user and series beside the user's defaults, gone with the user. */
class SqliteReadingSettingsStoreTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-12-01T10:00:00Z");
  private final ReadingSettings paged = new ReadingSettings("double", "rtl", "height", true, false);
  private final ReadingSettings strip = new ReadingSettings("strip", "ltr", "width", false, true);

  @Test
  void aSeriesChoiceAndTheDefaultsAreKeptApartAndReplacedInPlace() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      long alice = new SqliteUserStore(db).createUser("alice", "x", "reader", now);
      ReadingSettingsStore store = new SqliteReadingSettingsStore(db);

      store.saveDefaults(alice, strip, now);
      store.saveSeries(alice, "moon", strip, now);
      store.saveSeries(alice, "moon", paged, now);

      assertThat(store.series(alice, "moon")).contains(paged);
      assertThat(store.defaults(alice)).contains(strip);
      assertThat(store.series(alice, "sun")).isEmpty();
      assertThat(store.deleteSeries(alice, "moon")).isTrue();
      assertThat(store.deleteSeries(alice, "moon")).isFalse();
      assertThat(store.series(alice, "moon")).isEmpty();
      assertThat(store.defaults(alice)).contains(strip);
    }
  }

  @Test
  void aUsersSettingsGoWithTheUser() throws Exception {
    Path file = dir.resolve("reader.db");
    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      long alice = new SqliteUserStore(db).createUser("alice", "x", "reader", now);
      ReadingSettingsStore store = new SqliteReadingSettingsStore(db);
      store.saveDefaults(alice, strip, now);
      store.saveSeries(alice, "moon", paged, now);
    }
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = db.createStatement()) {
      statement.execute("PRAGMA foreign_keys = ON");
      statement.execute("DELETE FROM users WHERE username = 'alice'");
      try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM reading_settings")) {
        rows.next();
        assertThat(rows.getInt(1)).as("reading settings left after their user was deleted").isZero();
      }
    }
  }
}
