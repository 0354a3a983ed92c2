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
import java.util.Optional;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code data/reader.db} (SQLite, WAL): the one connection the {@code Sqlite*Store} classes share, one caller at a
 * time, with the schema migrated forward by Flyway ({@link ReaderMigrations}). Blocking JDBC: use it from a worker thread or
 * {@code executeBlocking}, never from an event loop. A file that is not a readable reader database is reported and
 * never touched (but for its permissions: the database, its -wal/-shm and their folder are owner-only).
 */
public final class SqliteDatabase implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SqliteDatabase.class);

  /** The schema this version creates and reads. */
  public static final int SCHEMA = ReaderMigrations.SCHEMA;

  /** The table in which the versions before Flyway recorded each migration they ran. */
  private static final String LEGACY_HISTORY = "schema_version";

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

  /**
   * Checks the recorded version before anything may write to the file (a newer file is refused untouched), then sets
   * the connection up and migrates the file forward with Flyway, unless it is at this version already (the common
   * case, and Flyway's scan of its scripts costs more than the rest of an open).
   */
  private void configureAndMigrate() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 5000");
      Recorded recorded = recorded(connection);
      if (recorded.newerThanThisVersion()) {
        throw new CorruptStateFileException(file,
            "has schema " + recorded.version() + ", newer than this version's " + SCHEMA);
      }
      statement.execute("PRAGMA foreign_keys = ON");
      try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
        mode.next();
      }
      // In WAL mode, NORMAL may lose the last commits to a power cut; a change acknowledged to a user must not be.
      statement.execute("PRAGMA synchronous = FULL");
      if (!recorded.current()) {
        migrate(recorded);
      }
    }
  }

  /** Where a file's schema stands: Flyway's history, else the versions-before-Flyway table, else a new file. */
  private record Recorded(String version, boolean byFlyway, boolean legacy) {

    boolean newerThanThisVersion() {
      return ReaderMigrations.isNewer(version);
    }

    boolean current() {
      return byFlyway && ReaderMigrations.isCurrent(version);
    }
  }

  private static Recorded recorded(Connection connection) throws SQLException {
    if (hasTable(connection, ReaderMigrations.HISTORY)) {
      List<String> versions = new java.util.ArrayList<>();
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT version FROM " + ReaderMigrations.HISTORY
              + " WHERE success = 1 AND version IS NOT NULL")) {
        while (rows.next()) {
          versions.add(rows.getString(1));
        }
      }
      return new Recorded(ReaderMigrations.newest(versions), true, false);
    }
    if (hasTable(connection, LEGACY_HISTORY)) {
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM " + LEGACY_HISTORY)) {
        return new Recorded(String.valueOf(rows.next() ? rows.getInt(1) : 0), false, true);
      }
    }
    return new Recorded("0", false, false);
  }

  private static boolean hasTable(Connection connection, String name) throws SQLException {
    try (java.sql.PreparedStatement statement =
        connection.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
      statement.setString(1, name);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }

  /** Flyway on its own connection to the file; a file from before Flyway is recorded at its version first. */
  private void migrate(Recorded recorded) throws SQLException {
    org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
    config.setBusyTimeout(5000);
    org.sqlite.SQLiteDataSource dataSource = new org.sqlite.SQLiteDataSource(config);
    dataSource.setUrl("jdbc:sqlite:" + file);
    try {
      ReaderMigrations.migrate(ReaderMigrations.Engine.SQLITE, dataSource,
          recorded.legacy() ? Optional.of(Integer.parseInt(recorded.version())) : Optional.empty());
    } catch (FlywayException e) {
      throw new SQLException("its migration failed: " + e.getMessage(), e);
    }
  }

  /** The schema version recorded in the file. */
  public synchronized int schemaVersion() throws StoreException {
    return call(c -> Integer.parseInt(recorded(c).version()));
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
