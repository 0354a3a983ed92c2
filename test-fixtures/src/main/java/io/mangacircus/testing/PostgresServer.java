package io.mangacircus.testing;

import java.sql.Connection;
import java.sql.SQLException;

/** A running PostgreSQL server for tests: the loopback port it listens on and a trusted superuser connection to it. */
interface PostgresServer {

  /**
   * Password logins for every role but the superuser, whose trusted loopback logins create the roles and databases.
   * Both servers take this same file, so a test sees the same authentication whichever one runs.
   */
  String HBA = String.join("\n",
      "host all postgres 127.0.0.1/32 trust",
      "host all postgres ::1/128 trust",
      "host all all 127.0.0.1/32 scram-sha-256",
      "host all all ::1/128 scram-sha-256",
      "");

  /** The port it listens on, on localhost. */
  int port();

  /** A new connection as the superuser {@code postgres} to its {@code postgres} database. */
  Connection superuserConnection() throws SQLException;
}
