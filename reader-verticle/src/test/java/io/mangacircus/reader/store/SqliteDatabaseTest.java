package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.reader.accounts.PasswordHasher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reader.db} opened, created and migrated forward: what existing files hold is kept, other files untouched. */
class SqliteDatabaseTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void aNewDatabaseIsMigratedToTheCurrentSchemaAndKeepsItsData() throws Exception {
    Path file = dir.resolve("reader.db");
    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      assertThat(db.schemaVersion()).isEqualTo(SqliteDatabase.SCHEMA);
      new SqliteUserStore(db).createUser("Alice", PasswordHasher.hash("secret-1".toCharArray()), "admin", now);
    }
    try (SqliteDatabase again = SqliteDatabase.open(file)) {
      UserStore users = new SqliteUserStore(again);
      assertThat(users.user("alice")).as("user names are case-insensitive").isPresent();
      assertThat(users.countAdmins()).isEqualTo(1);
      assertThat(again.schemaVersion()).isEqualTo(SqliteDatabase.SCHEMA);
    }
  }

  @Test
  void aNewDatabaseItsWalAndShmAreReadableByTheOwnerOnlyAndSoIsTheirFolder() throws Exception {
    Path file = dir.resolve("data/reader.db");
    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      new SqliteUserStore(db).createUser("alice", "hash", "admin", now);

      assertThat(mode(file)).as("reader.db").isEqualTo("rw-------");
      assertThat(mode(dir.resolve("data/reader.db-wal"))).as("reader.db-wal").isEqualTo("rw-------");
      assertThat(mode(dir.resolve("data/reader.db-shm"))).as("reader.db-shm").isEqualTo("rw-------");
      assertThat(mode(file.getParent())).as("its folder").isEqualTo("rwx------");
    }
  }

  @Test
  void widerPermissionsLeftOnTheDatabaseFilesAndTheirFolderAreRepairedWhenItOpens() throws Exception {
    Path file = dir.resolve("data/reader.db");
    try (SqliteDatabase first = SqliteDatabase.open(file)) {
      new SqliteUserStore(first).createUser("alice", "hash", "admin", now);
      for (String name : new String[] {"reader.db", "reader.db-wal", "reader.db-shm"}) {
        Files.setPosixFilePermissions(dir.resolve("data").resolve(name),
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
      }
      Files.setPosixFilePermissions(file.getParent(),
          java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));

      try (SqliteDatabase again = SqliteDatabase.open(file)) {
        assertThat(new SqliteUserStore(again).user("alice")).isPresent();
        assertThat(mode(file)).as("reader.db").isEqualTo("rw-------");
        assertThat(mode(dir.resolve("data/reader.db-wal"))).as("reader.db-wal").isEqualTo("rw-------");
        assertThat(mode(dir.resolve("data/reader.db-shm"))).as("reader.db-shm").isEqualTo("rw-------");
        assertThat(mode(file.getParent())).as("its folder").isEqualTo("rwx------");
      }
    }
  }

  private static String mode(Path path) throws java.io.IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  @Test
  void aCommitIsDurableBeforeItIsAcknowledged() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      assertThat(db.<String>call(connection -> pragma(connection, "journal_mode"))).isEqualTo("wal");
      // 2 is FULL: in WAL mode the log is fsynced at every commit, so a power cut keeps what was acknowledged.
      assertThat(db.<String>call(connection -> pragma(connection, "synchronous"))).isEqualTo("2");
    }
  }

  private static String pragma(java.sql.Connection connection, String name) throws java.sql.SQLException {
    try (java.sql.Statement statement = connection.createStatement();
        java.sql.ResultSet value = statement.executeQuery("PRAGMA " + name)) {
      value.next();
      return value.getString(1);
    }
  }

  @Test
  void aFileThatIsNotAReaderDatabaseIsNamedAndLeftAlone() throws Exception {
    Path file = dir.resolve("reader.db");
    Files.writeString(file, "this is not sqlite, it is a note somebody saved here by mistake\n".repeat(20));
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> SqliteDatabase.open(file)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("reader.db");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void aSchemaOneDatabaseIsMigratedWithItsAccountsKept() throws Exception {
    Path file = dir.resolve("reader.db");
    try (java.sql.Connection old = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
        java.sql.Statement sql = old.createStatement()) {
      // the schema-1 layout, as the first release created it
      sql.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      sql.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE,"
          + " password_hash TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('admin','reader')),"
          + " disabled INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL)");
      sql.execute("CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id)"
          + " ON DELETE CASCADE, csrf_token TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL)");
      sql.execute("CREATE TABLE progress (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, chapter TEXT NOT NULL, page INTEGER NOT NULL, updated_at TEXT NOT NULL,"
          + " PRIMARY KEY (user_id, series))");
      sql.execute("INSERT INTO schema_version VALUES (1)");
      sql.execute("INSERT INTO users VALUES (1, 'old', 'x', 'reader', 0, '2026-01-01T00:00:00Z')");
      sql.execute("INSERT INTO progress VALUES (1, 's', 'chapter-0003', 7, '2026-01-02T00:00:00Z')");
    }

    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      ProgressStore progress = new SqliteProgressStore(db);
      assertThat(db.schemaVersion()).isEqualTo(SqliteDatabase.SCHEMA);
      assertThat(progress.progress(1, "s")).hasValueSatisfying(p -> assertThat(p.page()).isEqualTo(7));
      progress.setRead(1, "s", "chapter-0003", true, now);
      assertThat(progress.readChapters(1, "s")).containsExactly("chapter-0003");
    }
  }

  @Test
  void aSchemaSixDatabaseKeepsItsAppPasswordsWhichMayOnlyReadAndHaveNoSyncKey() throws Exception {
    Path file = dir.resolve("reader.db");
    try (java.sql.Connection old = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
        java.sql.Statement sql = old.createStatement()) {
      // the tables of schema 6 that app passwords touch, as that release created them
      sql.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      sql.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE,"
          + " password_hash TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('admin','reader')),"
          + " disabled INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, app_passwords_ended_at TEXT,"
          + " app_passwords_ended INTEGER NOT NULL DEFAULT 0)");
      sql.execute("CREATE TABLE app_passwords (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id)"
          + " ON DELETE CASCADE, name TEXT NOT NULL, lookup TEXT NOT NULL, password_hash TEXT NOT NULL,"
          + " created_at TEXT NOT NULL, last_used_at TEXT, UNIQUE (user_id, name))");
      sql.execute("CREATE INDEX app_passwords_lookup ON app_passwords (lookup)");
      for (int version = 1; version <= 6; version++) {
        sql.execute("INSERT INTO schema_version VALUES (" + version + ")");
      }
      sql.execute("INSERT INTO users (id, username, password_hash, role, created_at)"
          + " VALUES (1, 'old', 'x', 'reader', '2026-01-01T00:00:00Z')");
      sql.execute("INSERT INTO app_passwords VALUES (1, 1, 'Panels', 'Abcd', 'hash', '2026-01-02T00:00:00Z', NULL)");
    }

    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      assertThat(db.schemaVersion()).isEqualTo(SqliteDatabase.SCHEMA);
      assertThat(db.<String>call(connection -> {
        try (java.sql.Statement sql = connection.createStatement();
            java.sql.ResultSet row = sql.executeQuery("SELECT name || ' ' || scope || ' ' || (sync_key IS NULL)"
                + " FROM app_passwords")) {
          row.next();
          return row.getString(1);
        }
      })).as("name, scope, without a sync key").isEqualTo("Panels read 1");
    }
  }

  @Test
  void aSchemaEightDatabaseKeepsItsAccountsWhichSeeEveryLibraryWithoutAnAgeLimit() throws Exception {
    Path file = dir.resolve("reader.db");
    try (java.sql.Connection old = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
        java.sql.Statement sql = old.createStatement()) {
      // the users table of schema 8, as that release created it
      sql.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      sql.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE,"
          + " password_hash TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('admin','reader')),"
          + " disabled INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, app_passwords_ended_at TEXT,"
          + " app_passwords_ended INTEGER NOT NULL DEFAULT 0)");
      for (int version = 1; version <= 8; version++) {
        sql.execute("INSERT INTO schema_version VALUES (" + version + ")");
      }
      sql.execute("INSERT INTO users (id, username, password_hash, role, created_at)"
          + " VALUES (1, 'old', 'x', 'reader', '2026-01-01T00:00:00Z')");
    }

    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      UserStore users = new SqliteUserStore(db);
      assertThat(db.schemaVersion()).isEqualTo(SqliteDatabase.SCHEMA);
      assertThat(users.access("old")).contains(io.mangacircus.reader.access.UserAccess.EVERYTHING);
      assertThat(users.user("old")).isPresent();
    }
  }

  @Test
  void anAccountsAccessIsKeptAcrossAReopenAndAnUnknownAccountHasNone() throws Exception {
    Path file = dir.resolve("reader.db");
    var limited = io.mangacircus.reader.access.UserAccess.only(java.util.Set.of("downloads", "comics"),
        io.mangacircus.contracts.rating.AgeLimit.atMost(io.mangacircus.contracts.rating.AgeRating.TWELVE_PLUS));
    var nothing = io.mangacircus.reader.access.UserAccess.only(java.util.Set.of(),
        io.mangacircus.contracts.rating.AgeLimit.atMost(io.mangacircus.contracts.rating.AgeRating.NINE_PLUS)
            .withUnratedShown(true));
    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      UserStore users = new SqliteUserStore(db);
      users.createUser("rita", "hash", "reader", now);
      users.createUser("kid", "hash", "reader", now);
      assertThat(users.access("rita")).contains(io.mangacircus.reader.access.UserAccess.EVERYTHING);
      assertThat(users.setAccess("rita", limited)).isTrue();
      assertThat(users.setAccess("kid", nothing)).isTrue();
      assertThat(users.setAccess("nobody", limited)).isFalse();
    }
    try (SqliteDatabase again = SqliteDatabase.open(file)) {
      UserStore users = new SqliteUserStore(again);
      assertThat(users.access("RITA")).contains(limited);
      assertThat(users.accesses()).containsEntry("kid", nothing).containsEntry("rita", limited);
      assertThat(users.access("nobody")).isEmpty();
    }
  }
}
