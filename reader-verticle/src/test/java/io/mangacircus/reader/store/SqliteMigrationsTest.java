package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flyway on SQLite: a new file gets exactly the schema the versions before Flyway made, a file of those versions is
 * taken over with its data, and a file of a newer version is refused with its bytes untouched.
 */
class SqliteMigrationsTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void aNewFileHasTheSchemaTheVersionsBeforeFlywayCreated() throws Exception {
    Path file = dir.resolve("reader.db");

    SqliteDatabase.open(file).close();

    assertThat(schema(file)).containsExactlyInAnyOrderElementsOf(schemaNow());
  }

  @Test
  void aFileOfTheVersionsBeforeFlywayAtTheNewestSchemaIsTakenOverWithItsData() throws Exception {
    Path file = dir.resolve("reader.db");
    try (Connection old = DriverManager.getConnection("jdbc:sqlite:" + file); Statement sql = old.createStatement()) {
      sql.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      for (String statement : schemaBeforeFlyway()) {
        sql.execute(statement);
      }
      sql.execute("INSERT INTO tracker_outbox_version (last) VALUES (41)");
      for (int version = 1; version <= 12; version++) {
        sql.execute("INSERT INTO schema_version VALUES (" + version + ")");
      }
      sql.execute("INSERT INTO users (id, username, password_hash, role, created_at)"
          + " VALUES (7, 'old', 'x', 'reader', '2026-01-01T00:00:00Z')");
      sql.execute("INSERT INTO progress VALUES (7, 's', 'chapter-0003', 9, '2026-01-02T00:00:00Z')");
    }

    try (ReaderStores stores = ReaderStores.openSqlite(file)) {
      assertThat(stores.users().user("OLD")).hasValueSatisfying(u -> assertThat(u.id()).isEqualTo(7));
      assertThat(stores.progress().progress(7, "s")).hasValueSatisfying(p -> assertThat(p.page()).isEqualTo(9));
      stores.progress().saveProgress(7, "s", "chapter-0004", 1, false, now);
    }
    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      assertThat(db.schemaVersion()).isEqualTo(ReaderMigrations.SCHEMA);
    }
    assertThat(schema(file)).containsExactlyInAnyOrderElementsOf(schemaNow());
    assertThat(rows(file, "SELECT version || ' ' || type FROM flyway_schema_history ORDER BY installed_rank"))
        .as("recorded at its version, then the newer scripts run").containsExactly("12 BASELINE", "13 SQL",
            "14 SQL", "15 SQL");
    assertThat(rows(file, "SELECT last FROM tracker_outbox_version")).containsExactly("41");
  }

  @Test
  void aFileWhoseFlywayHistoryIsNewerIsRefusedAndLeftByteForByte() throws Exception {
    Path file = dir.resolve("reader.db");
    SqliteDatabase.open(file).close();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement sql = connection.createStatement()) {
      sql.execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
          + " installed_by, execution_time, success) VALUES (99, '99', 'from the future', 'SQL', 'V99__future.sql',"
          + " 'test', 0, 1)");
    }
    List<String> files = files();
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> SqliteDatabase.open(file)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("reader.db")
        .hasMessageContaining("has schema 99, newer than this version's " + ReaderMigrations.SCHEMA);
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    assertThat(files()).isEqualTo(files);
  }

  @Test
  void aFileOfTheVersionsBeforeFlywayWithANewerSchemaIsRefusedAndLeftByteForByte() throws Exception {
    Path file = dir.resolve("reader.db");
    try (Connection old = DriverManager.getConnection("jdbc:sqlite:" + file); Statement sql = old.createStatement()) {
      sql.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      sql.execute("INSERT INTO schema_version VALUES (" + (ReaderMigrations.SCHEMA + 1) + ")");
    }
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> SqliteDatabase.open(file)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("has schema " + (ReaderMigrations.SCHEMA + 1) + ", newer than this version's "
            + ReaderMigrations.SCHEMA);
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    assertThat(files()).containsExactly("reader.db");
  }

  /** The schema of today: the one the versions before Flyway made (12), and the scripts after it. */
  private static List<String> schemaNow() throws IOException {
    List<String> now = new ArrayList<>(schemaBeforeFlyway());
    now.addAll(statements("/db/reader/sqlite/V13__sign_in_identities.sql"));
    now.addAll(statements("/db/reader/sqlite/V15__catalog.sql"));
    // V14 adds a column: SQLite records it appended to the table's columns, before the table's constraints.
    now.replaceAll(sql -> sql.startsWith("CREATE TABLE tracker_outbox (")
        ? sql.replace("created_at TEXT NOT NULL, PRIMARY KEY",
            "created_at TEXT NOT NULL, claimed_until_ms INTEGER NOT NULL DEFAULT 0, PRIMARY KEY")
        : sql);
    return now;
  }

  /** The schema as the versions before Flyway created it: each table's, then each index's SQL, by name. */
  private static List<String> schemaBeforeFlyway() throws IOException {
    return statements("sqlite-schema-12.sql");
  }

  private static List<String> statements(String resource) throws IOException {
    try (InputStream in = SqliteMigrationsTest.class.getResourceAsStream(resource)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Arrays.stream(text.split(";\n")).map(s -> s.lines().filter(l -> !l.startsWith("--"))
          .reduce("", String::concat).trim()).filter(s -> !s.isEmpty()).toList();
    }
  }

  private static List<String> schema(Path file) throws SQLException {
    return rows(file, "SELECT sql FROM sqlite_master WHERE tbl_name NOT IN ('schema_version', 'flyway_schema_history')"
        + " AND name NOT LIKE 'sqlite_%' ORDER BY CASE type WHEN 'table' THEN 0 ELSE 1 END, name");
  }

  private static List<String> rows(Path file, String query) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement sql = connection.createStatement(); ResultSet row = sql.executeQuery(query)) {
      while (row.next()) {
        rows.add(row.getString(1));
      }
    }
    return rows;
  }

  private List<String> files() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
