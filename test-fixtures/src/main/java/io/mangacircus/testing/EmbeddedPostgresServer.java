package io.mangacircus.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * PostgreSQL from zonky's embedded binaries, stopped at JVM exit by zonky's shutdown hook. As root zonky runs it in a
 * user namespace ({@code unshare}), as PostgreSQL refuses to run as root.
 */
final class EmbeddedPostgresServer implements PostgresServer {

  private final EmbeddedPostgres postgres;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts one; fails with an IOException when zonky cannot start PostgreSQL here. */
  static EmbeddedPostgresServer start() throws IOException {
    return new EmbeddedPostgresServer(EmbeddedPostgres.builder()
        .setServerConfig("password_encryption", "scram-sha-256")
        .setDataDirectoryCustomizer(EmbeddedPostgresServer::passwordLogins)
        .start());
  }

  @Override
  public int port() {
    return postgres.getPort();
  }

  @Override
  public Connection superuserConnection() throws SQLException {
    return postgres.getPostgresDatabase().getConnection();
  }

  private static void passwordLogins(File dataDirectory) {
    try {
      Files.writeString(dataDirectory.toPath().resolve("pg_hba.conf"), HBA);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write pg_hba.conf in " + dataDirectory, e);
    }
  }
}
