package io.mangacircus.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One PostgreSQL server per test JVM (started on first use, stopped at JVM exit; which one, {@link PostgresServerChoice}
 * says: zonky's embedded server, or Debian's where zonky cannot run), and a new empty database on it for each test that
 * asks, owned by a role that logs in with a password over SCRAM-SHA-256 (as a real deployment does; only the server's
 * own superuser is trusted, for creating the databases).
 */
public final class TestPostgres {

  /** A new empty database: where it is and who may log in to it (its owner and that role's password). */
  public record Database(String name, String host, int port, String user, String password) {

    /** Its URL in the form {@code reader.database} takes (no password). */
    public String url() {
      return "postgresql://" + user + "@" + host + ":" + port + "/" + name;
    }

    /** Its JDBC URL, for tests that look at tables directly. */
    public String jdbcUrl() {
      return "jdbc:postgresql://" + host + ":" + port + "/" + name;
    }

    @Override
    public String toString() {
      return "Database[" + url() + "]";
    }
  }

  /** The role that owns every fresh database; its password is new for each JVM. */
  private static final String ROLE = "mangacircus";
  private static final String PASSWORD = "test-" + java.util.UUID.randomUUID();

  private static final AtomicInteger NEXT = new AtomicInteger();
  private static PostgresServer server;

  private TestPostgres() {
  }

  /** A new empty database on this JVM's server (started on the first call). */
  public static Database freshDatabase() {
    return freshDatabase(server());
  }

  /** A new empty database on {@code postgres}, which {@link #withRole} prepared. */
  static Database freshDatabase(PostgresServer postgres) {
    String name = "reader_" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet();
    try (Connection connection = postgres.superuserConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name + " OWNER " + ROLE);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the test database " + name + ": " + e.getMessage(), e);
    }
    return new Database(name, "localhost", postgres.port(), ROLE, PASSWORD);
  }

  /** Creates, on a newly started server, the role that owns the fresh databases; returns the server. */
  static <S extends PostgresServer> S withRole(S postgres) {
    try (Connection connection = postgres.superuserConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the test role: " + e.getMessage(), e);
    }
    return postgres;
  }

  private static synchronized PostgresServer server() {
    if (server == null) {
      server = withRole(PostgresServerChoice.start());
    }
    return server;
  }
}
