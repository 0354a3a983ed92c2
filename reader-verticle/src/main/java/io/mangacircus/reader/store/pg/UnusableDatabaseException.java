package io.mangacircus.reader.store.pg;

/**
 * The reader cannot start on its PostgreSQL database (unreachable, refused the login, newer than this version, a
 * migration failed). The message names the database by host, port and name, never by its password.
 */
public final class UnusableDatabaseException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  UnusableDatabaseException(PostgresTarget target, String why) {
    super("reader.database: cannot use PostgreSQL " + target.describe() + ": " + why);
  }
}
