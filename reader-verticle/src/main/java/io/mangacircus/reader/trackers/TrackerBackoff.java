package io.mangacircus.reader.trackers;

import java.time.Duration;
import java.util.Optional;

/**
 * When a tracker update that failed is tried again: after exactly the pause a {@code 429} asked for, after a delay
 * that doubles while the tracker is down, after the user signed in again (re-checked hourly), or never for a refusal.
 * No I/O.
 */
public final class TrackerBackoff {

  /** The pause taken after a {@code 429} that named none. */
  public static final Duration RATE_LIMITED_DEFAULT = Duration.ofSeconds(60);

  /** The first wait after a tracker was down; each further failed try doubles it. */
  public static final Duration UNAVAILABLE_FIRST = Duration.ofSeconds(15);

  /** The longest wait while a tracker stays down, so that it is noticed back within this time. */
  public static final Duration UNAVAILABLE_MAX = Duration.ofMinutes(5);

  /**
   * How often an update waiting for the user to sign in again is looked at (a new sign-in releases it at once; this
   * only catches a sign-in made some other way).
   */
  public static final Duration SIGN_IN_RECHECK = Duration.ofHours(1);

  private TrackerBackoff() {
  }

  /**
   * The wait before the next try; empty when the update is not to be tried again.
   *
   * @param attempts the failed tries so far, this one included (1 after the first failure)
   */
  public static Optional<Duration> delay(TrackerFailure failure, int attempts) {
    return delay(failure.kind(), failure.retryAfter().orElse(null), attempts);
  }

  /**
   * The wait before the next try after a failure of this kind; empty when not to be tried again.
   *
   * @param retryAfter the pause the tracker asked for, or null when none
   * @param attempts the failed tries so far, this one included (1 after the first failure)
   */
  public static Optional<Duration> delay(TrackerFailure.Kind kind, Duration retryAfter, int attempts) {
    return switch (kind) {
      case RATE_LIMITED -> Optional.of(retryAfter == null || retryAfter.isNegative() ? RATE_LIMITED_DEFAULT
          : retryAfter);
      case UNAVAILABLE -> Optional.of(unavailable(attempts));
      case SIGN_IN_AGAIN -> Optional.of(SIGN_IN_RECHECK);
      case REFUSED -> Optional.empty();
    };
  }

  /** 15 s, 30 s, 1 min, 2 min, 4 min, then 5 min for every further failed try. */
  public static Duration unavailable(int attempts) {
    int doublings = Math.max(0, attempts - 1);
    // 15 s doubled 5 times is past the cap already; a larger shift would overflow.
    if (doublings >= 5) {
      return UNAVAILABLE_MAX;
    }
    Duration wait = UNAVAILABLE_FIRST.multipliedBy(1L << doublings);
    return wait.compareTo(UNAVAILABLE_MAX) > 0 ? UNAVAILABLE_MAX : wait;
  }
}
