package io.mangacircus.launcher.migrate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.sqlite.SQLiteConfig;

/**
 * The SQLite file {@code migrate-db} copies from, opened read-only: whether it is a reader database at all (looked at
 * before the reader's code may migrate it, which would create the reader's tables in any SQLite file), and the
 * connection the copy reads it through.
 */
public final class SqliteSource {

  private SqliteSource() {
  }

  /** What makes {@code file} not a reader database, or empty when it is one; reads only. */
  public static Optional<String> problem(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.of("there is no file " + file.toAbsolutePath());
    }
    Set<String> tables = new HashSet<>();
    try (Connection sqlite = openReadOnly(file);
        Statement statement = sqlite.createStatement();
        ResultSet rows = statement.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
      while (rows.next()) {
        tables.add(rows.getString(1));
      }
    } catch (SQLException e) {
      return Optional.of(file.toAbsolutePath() + " is not a SQLite database (" + e.getMessage() + ")");
    }
    boolean versioned = tables.contains("schema_version") || tables.contains("flyway_schema_history");
    if (!versioned || !tables.contains("users")) {
      return Optional.of(file.toAbsolutePath() + " is a SQLite database but not the reader's (it has no users table "
          + "or no schema version)");
    }
    return Optional.empty();
  }

  /** A read-only connection to {@code file}; it never creates the file. */
  public static Connection openReadOnly(Path file) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.setBusyTimeout(5_000);
    return config.createConnection("jdbc:sqlite:" + file);
  }
}
