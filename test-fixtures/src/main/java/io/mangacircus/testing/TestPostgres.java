package io.mangacircus.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One embedded PostgreSQL server per test JVM (zonky's binaries, started on first use, stopped at JVM exit by zonky's
 * shutdown hook), and a new empty database on it for each test that asks, owned by a role that logs in with a password
 * over SCRAM-SHA-256 (as a real deployment does; only the server's own superuser is trusted, for creating the
 * databases). Runs as root too: zonky then starts PostgreSQL in a user namespace ({@code unshare}), as PostgreSQL
 * refuses to run as root.
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

  /** Password logins for every role but the superuser, whose trusted local logins create the databases. */
  private static final String HBA = String.join("\n",
      "host all postgres 127.0.0.1/32 trust",
      "host all postgres ::1/128 trust",
      "host all all 127.0.0.1/32 scram-sha-256",
      "host all all ::1/128 scram-sha-256",
      "");

  private static final AtomicInteger NEXT = new AtomicInteger();
  private static EmbeddedPostgres server;

  private TestPostgres() {
  }

  /** A new empty database on this JVM's server (started on the first call). */
  public static Database freshDatabase() {
    EmbeddedPostgres postgres = server();
    String name = "reader_" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet();
    try (Connection connection = postgres.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name + " OWNER " + ROLE);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the test database " + name + ": " + e.getMessage(), e);
    }
    return new Database(name, "localhost", postgres.getPort(), ROLE, PASSWORD);
  }

  private static synchronized EmbeddedPostgres server() {
    if (server == null) {
      try {
        server = EmbeddedPostgres.builder()
            .setServerConfig("password_encryption", "scram-sha-256")
            .setDataDirectoryCustomizer(TestPostgres::passwordLogins)
            .start();
        try (Connection connection = server.getPostgresDatabase().getConnection();
            Statement statement = connection.createStatement()) {
          statement.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the embedded PostgreSQL server", e);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot create the test role: " + e.getMessage(), e);
      }
    }
    return server;
  }

  private static void passwordLogins(java.io.File dataDirectory) {
    try {
      java.nio.file.Files.writeString(dataDirectory.toPath().resolve("pg_hba.conf"), HBA);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write pg_hba.conf in " + dataDirectory, e);
    }
  }
}
