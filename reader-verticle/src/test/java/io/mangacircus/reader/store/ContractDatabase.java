package io.mangacircus.reader.store;

import io.mangacircus.reader.store.StoreEngines.Engine;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A new empty database of one engine for a store contract test that reopens it as a restart would and reaches its
 * tables directly: a user's row deleted (no store deletes users) to see what goes with the user, a column changed.
 */
final class ContractDatabase implements AutoCloseable {

  private final Engine engine;
  private final Path sqliteFile;
  private final TestPostgres.Database postgres;
  private Vertx vertx;
  private ReaderStores stores;

  private ContractDatabase(Engine engine, Path sqliteFile, TestPostgres.Database postgres) {
    this.engine = engine;
    this.sqliteFile = sqliteFile;
    this.postgres = postgres;
  }

  /** A new empty database of {@code engine}, opened; SQLite's file goes in {@code folder}. */
  static ContractDatabase fresh(Engine engine, Path folder) {
    ContractDatabase database = engine == Engine.SQLITE
        ? new ContractDatabase(engine, folder.resolve("reader.db"), null)
        : new ContractDatabase(engine, null, TestPostgres.freshDatabase());
    database.open();
    return database;
  }

  /** The stores over the database as last opened. */
  ReaderStores stores() {
    return stores;
  }

  /** Closes the stores and opens them again over the same database, as a restart of the reader would. */
  void reopen() throws Exception {
    closeStores();
    open();
  }

  /** Runs a statement straight in the database (a change of the schema a test needs). */
  void execute(String sql) throws SQLException {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Deletes a user's row, foreign keys enforced. */
  void deleteUser(long userId) throws SQLException {
    change("DELETE FROM users WHERE id = ?", userId);
  }

  private void change(String sql, long userId) throws SQLException {
    try (Connection connection = connect(); PreparedStatement change = connection.prepareStatement(sql)) {
      change.setLong(1, userId);
      if (change.executeUpdate() != 1) {
        throw new IllegalStateException("no user " + userId);
      }
    }
  }

  private Connection connect() throws SQLException {
    if (engine == Engine.POSTGRESQL) {
      return DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
    }
    Connection connection = DriverManager.getConnection("jdbc:sqlite:" + sqliteFile);
    try (Statement pragma = connection.createStatement()) {
      pragma.execute("PRAGMA foreign_keys = ON");
      pragma.execute("PRAGMA busy_timeout = 5000");
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  private void open() {
    if (engine == Engine.SQLITE) {
      stores = ReaderStores.openSqlite(sqliteFile);
    } else {
      vertx = Vertx.vertx();
      stores = ReaderStores.openPostgres(vertx, StoreEngines.target(postgres));
    }
  }

  private void closeStores() throws Exception {
    try {
      stores.close();
    } finally {
      if (vertx != null) {
        vertx.close().await();
        vertx = null;
      }
    }
  }

  @Override
  public void close() throws Exception {
    closeStores();
  }
}
