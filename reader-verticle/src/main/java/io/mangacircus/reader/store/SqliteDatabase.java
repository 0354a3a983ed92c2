package io.mangacircus.reader.store;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DurableFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code data/reader.db} (SQLite, WAL): the one connection the {@code Sqlite*Store} classes share, one caller at a
 * time, with the schema and its numbered migrations. Blocking JDBC: use it from a worker thread or
 * {@code executeBlocking}, never from an event loop. A file that is not a readable reader database is reported and
 * never touched (but for its permissions: the database, its -wal/-shm and their folder are owner-only).
 */
public final class SqliteDatabase implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SqliteDatabase.class);

  /** The schema this version creates and reads. */
  public static final int SCHEMA = 13;

  private static final List<String> MIGRATION_1 = List.of(
      "CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE,"
          + " password_hash TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('admin','reader')),"
          + " disabled INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL)",
      "CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id)"
          + " ON DELETE CASCADE, csrf_token TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL)",
      "CREATE TABLE progress (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, chapter TEXT NOT NULL, page INTEGER NOT NULL, updated_at TEXT NOT NULL,"
          + " PRIMARY KEY (user_id, series))");

  private static final List<String> MIGRATION_2 = List.of(
      "CREATE TABLE chapter_reads (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, chapter TEXT NOT NULL, read_at TEXT NOT NULL,"
          + " PRIMARY KEY (user_id, series, chapter))");

  private static final List<String> MIGRATION_3 = List.of(
      "CREATE TABLE app_passwords (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id)"
          + " ON DELETE CASCADE, name TEXT NOT NULL, lookup TEXT NOT NULL, password_hash TEXT NOT NULL,"
          + " created_at TEXT NOT NULL, last_used_at TEXT, UNIQUE (user_id, name))",
      "CREATE INDEX app_passwords_lookup ON app_passwords (lookup)");

  private static final List<String> MIGRATION_4 = List.of(
      "CREATE TABLE alert_targets (user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,"
          + " type TEXT NOT NULL CHECK (type IN ('ntfy','webhook')), url TEXT NOT NULL, topic TEXT NOT NULL,"
          + " token TEXT NOT NULL, updated_at TEXT NOT NULL)",
      "CREATE TABLE series_alerts (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (user_id, series))",
      "CREATE INDEX series_alerts_series ON series_alerts (series)");

  /** When each user last opened the library, for its "New" badges. */
  private static final List<String> MIGRATION_5 = List.of(
      "CREATE TABLE library_visits (user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,"
          + " since TEXT, last_at TEXT NOT NULL)");

  /** When a password reset last ended a user's app passwords, and how many, for their profile page. */
  private static final List<String> MIGRATION_6 = List.of(
      "ALTER TABLE users ADD COLUMN app_passwords_ended_at TEXT",
      "ALTER TABLE users ADD COLUMN app_passwords_ended INTEGER NOT NULL DEFAULT 0");

  /**
   * What each app password may do (those made before may only read, as before), and the verifier of its KOReader sync
   * key, found by its index.
   */
  private static final List<String> MIGRATION_7 = List.of(
      "ALTER TABLE app_passwords ADD COLUMN scope TEXT NOT NULL DEFAULT 'read'"
          + " CHECK (scope IN ('read','read+progress'))",
      "ALTER TABLE app_passwords ADD COLUMN sync_key TEXT",
      "CREATE INDEX app_passwords_sync_key ON app_passwords (sync_key)");

  /**
   * KOReader's document ids of each chapter's CBZ (so that a sync request names a chapter, after a restart too) and
   * each user's last KOReader push per document (its device, and the raw position of a file that names no chapter).
   */
  private static final List<String> MIGRATION_8 = List.of(
      "CREATE TABLE kosync_documents (document TEXT PRIMARY KEY, series TEXT NOT NULL, chapter TEXT NOT NULL,"
          + " kind TEXT NOT NULL CHECK (kind IN ('binary','filename')), recorded_at TEXT NOT NULL)",
      "CREATE INDEX kosync_documents_chapter ON kosync_documents (series, chapter)",
      "CREATE TABLE kosync_pushes (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " document TEXT NOT NULL, progress TEXT NOT NULL, percentage REAL NOT NULL, device TEXT NOT NULL,"
          + " device_id TEXT NOT NULL, pushed_at TEXT NOT NULL, PRIMARY KEY (user_id, document))");

  /**
   * What each account may see: its libraries (NULL for every library, else their names joined by commas, which a
   * library name cannot hold), its age limit and whether a limited account sees unrated series. Accounts made before
   * see everything, as they did.
   */
  private static final List<String> MIGRATION_9 = List.of(
      "ALTER TABLE users ADD COLUMN access_libraries TEXT",
      "ALTER TABLE users ADD COLUMN age_limit TEXT NOT NULL DEFAULT 'none'"
          + " CHECK (age_limit IN ('none','all','9','12','15','18'))",
      "ALTER TABLE users ADD COLUMN unrated_shown INTEGER NOT NULL DEFAULT 0");

  /**
   * Which series an admin merged into which other (the series ids as the library names them); kept here rather than
   * in the library folders so that rescans and restarts keep them and a collection stays untouched.
   */
  private static final List<String> MIGRATION_10 = List.of(
      "CREATE TABLE series_merges (series TEXT PRIMARY KEY, into_series TEXT NOT NULL, merged_at TEXT NOT NULL,"
          + " CHECK (series <> into_series))");

  /**
   * Users' tracker sign-ins (tokens only as the tracker token vault sealed them), their series linked to tracker
   * entries, and the tracker outbox: at most one pending update per (user, tracker, series). The outbox's due time is
   * epoch milliseconds, so that it compares as a number (ISO text of instants does not sort by time when fractions
   * differ). Versions come from one counter that only grows, so an update removed and requested again is newer than
   * any delivery of its predecessor.
   */
  private static final List<String> MIGRATION_11 = List.of(
      "CREATE TABLE tracker_accounts (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " tracker TEXT NOT NULL, sealed_access TEXT NOT NULL, sealed_refresh TEXT, expires_at TEXT,"
          + " account_id TEXT NOT NULL, account_name TEXT NOT NULL, needs_sign_in INTEGER NOT NULL DEFAULT 0,"
          + " problem TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (user_id, tracker))",
      "CREATE TABLE tracker_links (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " tracker TEXT NOT NULL, series TEXT NOT NULL, remote_id TEXT NOT NULL, title TEXT NOT NULL,"
          + " automatic INTEGER NOT NULL, list_entry_id TEXT, tracker_progress INTEGER, tracker_status TEXT,"
          + " total_chapters INTEGER, last_push_at TEXT, last_sync_at TEXT, last_error TEXT NOT NULL,"
          + " pull_offered INTEGER, linked_at TEXT NOT NULL, PRIMARY KEY (user_id, tracker, series))",
      "CREATE TABLE tracker_outbox (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " tracker TEXT NOT NULL, series TEXT NOT NULL, due_ms INTEGER NOT NULL,"
          + " attempts INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL, last_error TEXT NOT NULL,"
          + " created_at TEXT NOT NULL, PRIMARY KEY (user_id, tracker, series))",
      "CREATE INDEX tracker_outbox_due ON tracker_outbox (due_ms)",
      "CREATE TABLE tracker_outbox_version (last INTEGER NOT NULL)",
      "INSERT INTO tracker_outbox_version (last) VALUES (0)");

  /**
   * How each user reads: per series they chose settings for, and their defaults in the row whose series is empty (no
   * series id is), so that the settings follow the user from one browser to another.
   */
  private static final List<String> MIGRATION_12 = List.of(
      "CREATE TABLE reading_settings (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, layout TEXT NOT NULL CHECK (layout IN ('single','double','strip','auto')),"
          + " direction TEXT NOT NULL CHECK (direction IN ('ltr','rtl')),"
          + " fit TEXT NOT NULL CHECK (fit IN ('width','height','original')),"
          + " page_offset INTEGER NOT NULL CHECK (page_offset IN (0,1)), crop INTEGER NOT NULL CHECK (crop IN (0,1)),"
          + " updated_at TEXT NOT NULL, PRIMARY KEY (user_id, series))");

  /**
   * Which identity at a sign-in provider (its issuer and the subject it names the person by) signs in as which
   * account; an account may have several, an identity one account.
   */
  private static final List<String> MIGRATION_13 = List.of(
      "CREATE TABLE user_identities (issuer TEXT NOT NULL, subject TEXT NOT NULL, user_id INTEGER NOT NULL"
          + " REFERENCES users(id) ON DELETE CASCADE, linked_at TEXT NOT NULL, PRIMARY KEY (issuer, subject))",
      "CREATE INDEX user_identities_user ON user_identities (user_id)");

  /** Work on the connection, which may fail with the driver's exception. */
  @FunctionalInterface
  interface Work<T> {
    T on(Connection connection) throws SQLException;
  }

  private final Path file;
  private final Connection connection;

  private SqliteDatabase(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /**
   * Opens (or creates) the database and migrates it forward.
   *
   * @throws CorruptStateFileException when the file is not a SQLite database or comes from a newer version
   */
  public static SqliteDatabase open(Path file) {
    try {
      Path folder = file.toAbsolutePath().getParent();
      DurableFiles.createDirectories(folder);
      // Password hashes, session and CSRF tokens, readers' alert secrets: owner-only, whatever the umask. SQLite gives
      // the -wal and -shm it creates the database file's permissions, so the file exists 0600 before SQLite opens it
      // (an empty file is a new database); files left wider by an earlier version are repaired here.
      ownerOnly(folder);
      DurableFiles.createOwnerOnlyFile(file);
      ownerOnlyWithCompanions(file);
      Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
      SqliteDatabase database = new SqliteDatabase(file, connection);
      try {
        database.configureAndMigrate();
        ownerOnlyWithCompanions(file);
        // A new database file's entry (and its WAL's) is durable before anything is acknowledged from it.
        DurableFiles.fsyncFolder(file.toAbsolutePath().getParent());
      } catch (SQLException | java.io.IOException | RuntimeException e) {
        connection.close();
        throw e;
      }
      return database;
    } catch (SQLException e) {
      throw new CorruptStateFileException(file, "is not a usable reader database: " + e.getMessage());
    } catch (java.io.IOException e) {
      throw new CorruptStateFileException(file, "cannot be created: " + e.getMessage());
    }
  }

  /** The files SQLite keeps beside the database, each holding part of its content. */
  public static List<Path> companions(Path file) {
    return List.of(file.resolveSibling(file.getFileName() + "-wal"), file.resolveSibling(file.getFileName() + "-shm"),
        file.resolveSibling(file.getFileName() + "-journal"));
  }

  private static void ownerOnlyWithCompanions(Path file) {
    ownerOnly(file);
    companions(file).stream().filter(Files::exists).forEach(SqliteDatabase::ownerOnly);
  }

  /** Owner-only permissions; a file this process may not change (not its owner) is logged, not fatal. */
  private static void ownerOnly(Path path) {
    try {
      DurableFiles.restrictToOwner(path);
    } catch (java.io.IOException e) {
      LOG.warn("[READER] cannot make {} readable by its owner only ({}): it holds accounts and their secrets; "
          + "run the reader as the owner of the data folder or chmod it (0600 for files, 0700 for the folder)",
          path.toAbsolutePath(), e.toString());
    }
  }

  private void configureAndMigrate() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 5000");
      statement.execute("PRAGMA foreign_keys = ON");
      try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
        mode.next();
      }
      // In WAL mode, NORMAL may lose the last commits to a power cut; a change acknowledged to a user must not be.
      statement.execute("PRAGMA synchronous = FULL");
      statement.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      int version;
      try (ResultSet rows = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
        version = rows.next() ? rows.getInt(1) : 0;
      }
      if (version > SCHEMA) {
        throw new CorruptStateFileException(file, "has schema " + version + ", newer than this version's " + SCHEMA);
      }
      if (version < 1) {
        migrate(statement, MIGRATION_1, 1);
      }
      if (version < 2) {
        migrate(statement, MIGRATION_2, 2);
      }
      if (version < 3) {
        migrate(statement, MIGRATION_3, 3);
      }
      if (version < 4) {
        migrate(statement, MIGRATION_4, 4);
      }
      if (version < 5) {
        migrate(statement, MIGRATION_5, 5);
      }
      if (version < 6) {
        migrate(statement, MIGRATION_6, 6);
      }
      if (version < 7) {
        migrate(statement, MIGRATION_7, 7);
      }
      if (version < 8) {
        migrate(statement, MIGRATION_8, 8);
      }
      if (version < 9) {
        migrate(statement, MIGRATION_9, 9);
      }
      if (version < 10) {
        migrate(statement, MIGRATION_10, 10);
      }
      if (version < 11) {
        migrate(statement, MIGRATION_11, 11);
      }
      if (version < 12) {
        migrate(statement, MIGRATION_12, 12);
      }
      if (version < 13) {
        migrate(statement, MIGRATION_13, 13);
      }
    }
  }

  private void migrate(Statement statement, List<String> steps, int to) throws SQLException {
    connection.setAutoCommit(false);
    try {
      for (String sql : steps) {
        statement.execute(sql);
      }
      statement.execute("INSERT INTO schema_version (version) VALUES (" + to + ")");
      connection.commit();
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  /** The schema version recorded in the file. */
  public synchronized int schemaVersion() throws StoreException {
    return call(c -> {
      try (Statement statement = c.createStatement();
          ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM schema_version")) {
        return rows.next() ? rows.getInt(1) : 0;
      }
    });
  }

  /** Runs {@code work} on the connection, one caller at a time. */
  synchronized <T> T call(Work<T> work) throws StoreException {
    try {
      return work.on(connection);
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /**
   * Runs {@code work} in one transaction, one caller at a time: committed when it returns, rolled back when it fails
   * on the database.
   */
  synchronized <T> T transaction(Work<T> work) throws StoreException {
    try {
      connection.setAutoCommit(false);
      try {
        T result = work.on(connection);
        connection.commit();
        return result;
      } catch (SQLException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  private static StoreException failed(SQLException e) {
    return new StoreException(e.getMessage(), e);
  }

  @Override
  public synchronized void close() throws StoreException {
    try {
      connection.close();
    } catch (SQLException e) {
      throw failed(e);
    }
  }
}
