package io.mangacircus.reader.trackers;

import java.time.Duration;
import java.util.Objects;

/**
 * Why a tracker call failed, as the outbox needs to know it: wait as asked, sign in again, try later, or give up on
 * this request. Its message names the tracker and the request's purpose, never a token or password.
 */
public final class TrackerFailure extends RuntimeException {

  /** What the failure means for the update waiting on it. */
  public enum Kind {
    /** The tracker asked for a pause ({@code 429}, {@code Retry-After}): try again after it, not before. */
    RATE_LIMITED,
    /** The token was refused or has expired and cannot be renewed: the user signs in again; nothing is dropped. */
    SIGN_IN_AGAIN,
    /** Unreachable, timed out or a server error: the tracker is down; try again later. */
    UNAVAILABLE,
    /** The tracker refused this request for good (an unknown series, a title it does not accept): not retried. */
    REFUSED
  }

  private final String tracker;
  private final Kind kind;
  private final Duration retryAfter;

  public TrackerFailure(String tracker, Kind kind, String message) {
    this(tracker, kind, message, null);
  }

  /** @param retryAfter the pause the tracker asked for ({@link Kind#RATE_LIMITED}); null when it named none */
  public TrackerFailure(String tracker, Kind kind, String message, Duration retryAfter) {
    super(tracker + ": " + message);
    this.tracker = Objects.requireNonNull(tracker, "tracker");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.retryAfter = retryAfter;
  }

  public String tracker() {
    return tracker;
  }

  public Kind kind() {
    return kind;
  }

  /** The pause asked for, when the tracker named one. */
  public java.util.Optional<Duration> retryAfter() {
    return java.util.Optional.ofNullable(retryAfter);
  }
}
