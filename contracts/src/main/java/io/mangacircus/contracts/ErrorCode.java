package io.mangacircus.contracts;

import java.util.Arrays;
import java.util.Optional;

/**
 * The failure codes event-bus replies carry ({@code message.fail(code, text)}). A code is never reused;
 * {@code docs/error-codes.md} lists them all.
 */
public enum ErrorCode {
  /** The body is not a JSON object, or a required field is missing or has the wrong type. */
  MALFORMED_MESSAGE(4001),
  /** The message's {@code v} field names a version this receiver does not understand. */
  UNSUPPORTED_VERSION(4002),
  /** The receiver is up but refuses the request in its current state (for example while stopping). */
  NOT_READY(4003),
  /** The job, lane or other thing the request names does not exist. */
  NOT_FOUND(4004),
  /** The request names a source that is not configured. */
  UNKNOWN_SOURCE(4005),
  /**
   * The request would break the job state machine (e.g. confirming a job that is not ready), or asks for a retry start
   * of a service that is not blocked.
   */
  ILLEGAL_TRANSITION(4009),
  /** The receiver hit a bug while handling a well-formed request; the request changed nothing. */
  INTERNAL_ERROR(5001),
  /** The receiver could not read or write its files (disk full, permission, read-only, unreadable state file). */
  STORAGE_ERROR(5002),
  /**
   * A cover the scraper fetched is not an image or is larger than the cap ({@code mc.scraper.covers.fetch}); nothing
   * was kept.
   */
  BAD_IMAGE(5020),
  /**
   * The source could not answer now (its circuit is open, it refused or failed the request); retry later
   * ({@code mc.scraper.covers.fetch}, {@code mc.scraper.titles.preview}).
   */
  SOURCE_UNAVAILABLE(5021);

  private final int code;

  ErrorCode(int code) {
    this.code = code;
  }

  /** The numeric code sent on the wire. */
  public int code() {
    return code;
  }

  /** The enum constant for a numeric code received in a {@code ReplyException}, if it is one of ours. */
  public static Optional<ErrorCode> ofCode(int code) {
    return Arrays.stream(values()).filter(c -> c.code == code).findFirst();
  }
}
