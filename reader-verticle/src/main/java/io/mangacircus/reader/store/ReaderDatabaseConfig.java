package io.mangacircus.reader.store;

import io.mangacircus.reader.store.pg.PostgresTarget;
import java.util.Map;
import java.util.Optional;

/**
 * Where the reader keeps its accounts, sessions and reading: the {@code reader.database*} keys of the reader section.
 *
 * @param database {@code "sqlite"} (the file {@code reader.db} in the data folder) or a PostgreSQL URL
 *     {@code postgresql://[user@]host[:port]/dbname[?sslmode=disable|require]} ({@code postgres://} too) without a
 *     password. Default {@code "sqlite"}.
 * @param passwordEnv the environment variable holding the PostgreSQL password; empty for none. Default empty.
 * @param passwordFile the file holding the PostgreSQL password (a trailing newline is not part of it); empty for none.
 *     Default empty. At most one of the two.
 * @param poolSize connections the reader keeps to PostgreSQL. Default 10; 1..100.
 */
public record ReaderDatabaseConfig(String database, String passwordEnv, String passwordFile, int poolSize) {

  /** The embedded default: {@code reader.db} in the data folder. */
  public static final String SQLITE = "sqlite";

  /** SQLite in the data folder, as when none of the keys is given. */
  public static final ReaderDatabaseConfig DEFAULT = new ReaderDatabaseConfig(SQLITE, "", "",
      PostgresTarget.DEFAULT_POOL_SIZE);

  public ReaderDatabaseConfig {
    database = database == null || database.isBlank() ? SQLITE : database.trim();
    passwordEnv = passwordEnv == null ? "" : passwordEnv.trim();
    passwordFile = passwordFile == null ? "" : passwordFile.trim();
  }

  /** Whether the reader runs on the embedded SQLite file. */
  public boolean sqlite() {
    return SQLITE.equals(database);
  }

  /**
   * What is wrong with these keys, as {@code "key: problem"}, checked without reading the password (the environment
   * variable and the file are read at start, by {@link #target(Map)}); empty when nothing is.
   */
  public Optional<String> problem() {
    if (poolSize < 1 || poolSize > PostgresTarget.MAX_POOL_SIZE) {
      return Optional.of("reader.databasePoolSize: must be between 1 and " + PostgresTarget.MAX_POOL_SIZE + ", got "
          + poolSize);
    }
    if (sqlite()) {
      if (!passwordEnv.isEmpty()) {
        return Optional.of("reader.databasePasswordEnv: only for a PostgreSQL reader.database (it is \"sqlite\")");
      }
      if (!passwordFile.isEmpty()) {
        return Optional.of("reader.databasePasswordFile: only for a PostgreSQL reader.database (it is \"sqlite\")");
      }
      return Optional.empty();
    }
    if (!PostgresTarget.isPostgresUrl(database)) {
      return Optional.of("reader.database: must be \"sqlite\" or a URL postgresql://user@host:port/dbname");
    }
    try {
      PostgresTarget.parse(database, null, null, poolSize, Map.of());
      if (!passwordEnv.isEmpty() && !passwordFile.isEmpty()) {
        return Optional.of("reader.databasePasswordEnv: set it or reader.databasePasswordFile, not both");
      }
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * The PostgreSQL database these keys name, its password read now from the environment or the file.
   *
   * @throws IllegalArgumentException naming the key at fault (never the password), or when the reader is on SQLite
   */
  public PostgresTarget target(Map<String, String> environment) {
    if (sqlite()) {
      throw new IllegalArgumentException("reader.database: \"sqlite\" names no PostgreSQL database");
    }
    return PostgresTarget.parse(database, passwordEnv.isEmpty() ? null : passwordEnv,
        passwordFile.isEmpty() ? null : passwordFile, poolSize, environment);
  }

  /** The URL without its user (a password is refused in it anyway), for logs and {@code toString}. */
  @Override
  public String toString() {
    String shown = sqlite() ? SQLITE : database.replaceFirst("^([A-Za-z]+://)[^@/]*@", "$1<user>@");
    return "ReaderDatabaseConfig[database=" + shown + ", passwordEnv=" + passwordEnv + ", passwordFile="
        + passwordFile + ", poolSize=" + poolSize + "]";
  }
}
