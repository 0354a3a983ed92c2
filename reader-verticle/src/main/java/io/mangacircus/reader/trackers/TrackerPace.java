package io.mangacircus.reader.trackers;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Spaces each tracker's requests within its rate limit, and holds all of a tracker's updates while it asked for a
 * pause ({@code 429}) or is down, so that a tracker in trouble gets one probe at a time rather than every pending
 * update. Decides only when; the caller does the waiting (by postponing). No I/O.
 */
public final class TrackerPace {

  /** Requests one update takes: reading the list entry, then saving it. */
  public static final int REQUESTS_PER_UPDATE = 2;

  /** Where a tracker's limit is not given. */
  public static final int DEFAULT_REQUESTS_PER_MINUTE = 60;

  private final InstantSource clock;
  private final Map<String, Integer> requestsPerMinute;
  private final Map<String, Instant> next = new HashMap<>();
  private final Map<String, Integer> downStreak = new HashMap<>();

  /** @param requestsPerMinute each tracker's limit by id (AniList's 90); others get {@link #DEFAULT_REQUESTS_PER_MINUTE} */
  public TrackerPace(InstantSource clock, Map<String, Integer> requestsPerMinute) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.requestsPerMinute = Map.copyOf(requestsPerMinute);
    this.requestsPerMinute.forEach((tracker, limit) -> {
      if (limit < 1) {
        throw new IllegalArgumentException("a tracker's requests per minute is at least 1: " + tracker + " " + limit);
      }
    });
  }

  /** The shortest time between two requests to a tracker, whole milliseconds rounded up to stay within its limit. */
  public Duration interval(String tracker) {
    long limit = requestsPerMinute.getOrDefault(tracker, DEFAULT_REQUESTS_PER_MINUTE);
    return Duration.ofMillis((60_000 + limit - 1) / limit);
  }

  /** The earliest time an update's requests may go to the tracker (now or earlier when free). */
  public synchronized Instant nextFree(String tracker) {
    return next.getOrDefault(tracker, Instant.MIN);
  }

  /**
   * Takes the slots of one update's requests when the tracker is free now; false (nothing taken) when its next slot
   * or the end of a pause is still ahead.
   */
  public synchronized boolean tryReserve(String tracker) {
    Instant now = clock.instant();
    if (nextFree(tracker).isAfter(now)) {
      return false;
    }
    next.put(tracker, now.plus(interval(tracker).multipliedBy(REQUESTS_PER_UPDATE)));
    return true;
  }

  /** Counts one more request than reserved (a token renewal) against the tracker's pace. */
  public synchronized void spendExtra(String tracker) {
    Instant now = clock.instant();
    Instant from = nextFree(tracker).isAfter(now) ? nextFree(tracker) : now;
    next.put(tracker, from.plus(interval(tracker)));
  }

  /** No request to the tracker before {@code until} (a pause never shortens one already held). */
  public synchronized void pauseUntil(String tracker, Instant until) {
    if (until.isAfter(nextFree(tracker))) {
      next.put(tracker, until);
    }
  }

  /**
   * The tracker was found down once more: it is held for the backoff of its failures in a row (whichever update met
   * them), and that end is returned.
   */
  public synchronized Instant down(String tracker) {
    int streak = downStreak.merge(tracker, 1, Integer::sum);
    Instant until = clock.instant().plus(TrackerBackoff.unavailable(streak));
    pauseUntil(tracker, until);
    return nextFree(tracker);
  }

  /** The tracker answered: a later outage starts its backoff from the first wait again. */
  public synchronized void answered(String tracker) {
    downStreak.remove(tracker);
  }
}
