package io.mangacircus.reader.library.providers;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Spaces one provider's requests: at most one per interval, and none before a pause the provider asked for (a 429's
 * {@code Retry-After}) has ended. Decides only how long to wait; the caller waits.
 */
public final class RequestPacer {

  private final InstantSource clock;
  private final Duration interval;
  private Instant next;

  /** @param interval the shortest time between two requests (AniList's 90 a minute: 667 ms) */
  public RequestPacer(InstantSource clock, Duration interval) {
    this.clock = clock;
    this.interval = interval;
    this.next = clock.instant();
  }

  /** Reserves the next free slot and says how long to wait for it (zero when it is now). */
  public synchronized Duration reserve() {
    Instant now = clock.instant();
    Instant slot = next.isAfter(now) ? next : now;
    next = slot.plus(interval);
    return Duration.between(now, slot);
  }

  /** No request before {@code pause} from now has passed (what a 429's {@code Retry-After} asks). */
  public synchronized void pauseFor(Duration pause) {
    Instant until = clock.instant().plus(pause);
    if (until.isAfter(next)) {
      next = until;
    }
  }
}
