package io.mangacircus.reader.store.pg;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.support.config.ConfigSecrets;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where the reader's PostgreSQL database is and how to log in to it, from {@code reader.database} (a URL without a
 * password) and {@code reader.databasePasswordEnv} or {@code reader.databasePasswordFile}. The password never leaves
 * this class but to the drivers: {@link #toString()} and every error message leave it out.
 */
public final class PostgresTarget {

  /** The port PostgreSQL listens on unless the URL names another. */
  public static final int DEFAULT_PORT = 5432;

  /** Connections in the pool unless {@code reader.databasePoolSize} says otherwise. */
  public static final int DEFAULT_POOL_SIZE = 10;

  /** The largest pool {@code reader.databasePoolSize} may ask for. */
  public static final int MAX_POOL_SIZE = 100;

  /** Whether the connections are encrypted: as libpq's {@code sslmode}, {@code require} without verification. */
  public enum SslMode {
    DISABLE, REQUIRE
  }

  private final String host;
  private final int port;
  private final String database;
  private final String user;
  private final String password;
  private final SslMode sslMode;
  private final int poolSize;

  public PostgresTarget(String host, int port, String database, String user, String password, SslMode sslMode,
      int poolSize) {
    if (poolSize < 1 || poolSize > MAX_POOL_SIZE) {
      throw new IllegalArgumentException("reader.databasePoolSize: " + poolSize + " is not between 1 and "
          + MAX_POOL_SIZE);
    }
    this.host = host;
    this.port = port;
    this.database = database;
    this.user = user;
    this.password = password;
    this.sslMode = sslMode;
    this.poolSize = poolSize;
  }

  /** Whether {@code reader.database} names a PostgreSQL database rather than the embedded SQLite file. */
  public static boolean isPostgresUrl(String database) {
    String lower = database.toLowerCase(Locale.ROOT);
    return lower.startsWith("postgresql://") || lower.startsWith("postgres://");
  }

  /**
   * The target a PostgreSQL URL {@code postgresql://[user@]host[:port]/dbname[?sslmode=disable|require]} names, with
   * its password read from the environment variable named {@code passwordEnv} or the file {@code passwordFile} (at
   * most one of them; neither for a server that asks no password).
   *
   * @param env the environment ({@code System.getenv()})
   * @throws IllegalArgumentException naming the config key at fault, never the password
   */
  public static PostgresTarget parse(String url, String passwordEnv, String passwordFile, int poolSize,
      Map<String, String> env) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      // The URI's own message repeats the URL, which may hold a password.
      throw new IllegalArgumentException("reader.database: not a URL of the form postgresql://user@host:port/dbname");
    }
    if (uri.getScheme() == null || !isPostgresUrl(url)) {
      throw new IllegalArgumentException("reader.database: \"sqlite\" or a URL postgresql://user@host:port/dbname");
    }
    String userInfo = uri.getRawUserInfo();
    if (userInfo != null && userInfo.contains(":")) {
      throw new IllegalArgumentException("reader.database: a password in the URL would be logged and kept in the"
          + " config; use reader.databasePasswordEnv or reader.databasePasswordFile");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new IllegalArgumentException("reader.database: the URL names no host (postgresql://user@host:port/dbname)");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (path.length() <= 1 || path.indexOf('/', 1) >= 0) {
      throw new IllegalArgumentException(
          "reader.database: the URL names no database (postgresql://user@host:port/dbname)");
    }
    String database = decode(path.substring(1));
    String user = userInfo == null || userInfo.isEmpty() ? System.getProperty("user.name") : decode(userInfo);
    int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
    SslMode sslMode = sslMode(uri.getRawQuery());
    String password = password(passwordEnv, passwordFile, env).orElse(null);
    return new PostgresTarget(uri.getHost(), port, database, user, password, sslMode, poolSize);
  }

  private static SslMode sslMode(String query) {
    SslMode mode = SslMode.DISABLE;
    if (query == null || query.isEmpty()) {
      return mode;
    }
    for (String parameter : query.split("&")) {
      int equals = parameter.indexOf('=');
      String name = decode(equals < 0 ? parameter : parameter.substring(0, equals));
      String value = equals < 0 ? "" : decode(parameter.substring(equals + 1));
      if (!name.equals("sslmode")) {
        throw new IllegalArgumentException("reader.database: the URL parameter \"" + name
            + "\" is not supported (only sslmode=disable|require is)");
      }
      mode = switch (value) {
        case "disable" -> SslMode.DISABLE;
        case "require" -> SslMode.REQUIRE;
        default -> throw new IllegalArgumentException("reader.database: sslmode \"" + value
            + "\" is not supported (disable or require)");
      };
    }
    return mode;
  }

  private static Optional<String> password(String passwordEnv, String passwordFile, Map<String, String> env) {
    try {
      return ConfigSecrets.read("reader.databasePasswordEnv", passwordEnv, "reader.databasePasswordFile", passwordFile,
          Path.of(""), env::get);
    } catch (InvalidConfigException e) {
      throw new IllegalArgumentException(e.key() + ": " + e.problem());
    }
  }

  private static String decode(String raw) {
    return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public String database() {
    return database;
  }

  public String user() {
    return user;
  }

  /** The password, for the drivers only; empty when the server asks none. */
  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  public SslMode sslMode() {
    return sslMode;
  }

  public int poolSize() {
    return poolSize;
  }

  /** Host, port and database: what a log line or an error message may name. */
  public String describe() {
    return host + ":" + port + "/" + database;
  }

  @Override
  public String toString() {
    return "PostgresTarget[" + user + "@" + describe() + ", password " + (password == null ? "none" : "(redacted)")
        + ", sslmode " + sslMode.name().toLowerCase(Locale.ROOT) + ", pool " + poolSize + "]";
  }
}
