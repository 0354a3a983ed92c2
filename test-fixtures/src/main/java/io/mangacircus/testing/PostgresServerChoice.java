package io.mangacircus.testing;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Starts the PostgreSQL server the tests use: the one the system property {@value #PROPERTY} names ({@code debian} or
 * {@code embedded}); without it zonky's embedded server, or Debian's when zonky cannot start here (as root without user
 * namespaces, or any failure to start).
 */
final class PostgresServerChoice {

  /** {@code debian} or {@code embedded} forces that server; unset or blank picks as described above. */
  static final String PROPERTY = "mangacircus.test.postgres";

  private static final System.Logger LOG = System.getLogger(PostgresServerChoice.class.getName());

  private PostgresServerChoice() {
  }

  /** Starts the server the system property asks for, or the one that works here. */
  static PostgresServer start() {
    return start(System.getProperty(PROPERTY));
  }

  /** Starts the server {@code choice} names ({@code debian}, {@code embedded}, or null/blank for the one that works). */
  static PostgresServer start(String choice) {
    try {
      if (choice == null || choice.isBlank()) {
        return startWhicheverWorks();
      }
      return switch (choice.strip()) {
        case "debian" -> DebianPostgresServer.start();
        case "embedded" -> EmbeddedPostgresServer.start();
        default -> throw new IllegalArgumentException(
            PROPERTY + ": '" + choice + "' is none of debian, embedded (or unset, for whichever starts)");
      };
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the test PostgreSQL server: " + e.getMessage(), e);
    }
  }

  private static PostgresServer startWhicheverWorks() throws IOException {
    if (RunningUser.isRoot() && !RunningUser.canUnshareUserNamespace()) {
      LOG.log(System.Logger.Level.INFO, "root without user namespaces (unshare -U fails): tests use Debian's PostgreSQL");
      return DebianPostgresServer.start();
    }
    try {
      return EmbeddedPostgresServer.start();
    } catch (IOException | RuntimeException embeddedFailure) {
      LOG.log(System.Logger.Level.WARNING, "the embedded PostgreSQL cannot start (" + embeddedFailure.getMessage()
          + "): tests use Debian's PostgreSQL");
      try {
        return DebianPostgresServer.start();
      } catch (IOException | RuntimeException debianFailure) {
        debianFailure.addSuppressed(embeddedFailure);
        throw debianFailure;
      }
    }
  }
}
