package io.mangacircus.launcher.notify;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;

/** At most {@code max} sends of one destination in any rolling {@code period}; a send over it waits for a slot. */
public final class RateLimit {

  private final int max;
  private final Duration period;
  private final InstantSource clock;
  private final Deque<Instant> sent = new ArrayDeque<>();

  public RateLimit(int max, Duration period, InstantSource clock) {
    if (max < 1) {
      throw new IllegalArgumentException("a rate limit allows at least one send");
    }
    this.max = max;
    this.period = period;
    this.clock = clock;
  }

  /** Takes a slot now when one is free (true), else takes nothing (false). */
  public boolean tryAcquire() {
    Instant now = clock.instant();
    forgetBefore(now.minus(period));
    if (sent.size() >= max) {
      return false;
    }
    sent.addLast(now);
    return true;
  }

  /** When the next slot frees up (now when one is free). */
  public Instant nextFree() {
    Instant now = clock.instant();
    forgetBefore(now.minus(period));
    return sent.size() < max ? now : sent.peekFirst().plus(period);
  }

  private void forgetBefore(Instant cutoff) {
    while (!sent.isEmpty() && !sent.peekFirst().isAfter(cutoff)) {
      sent.removeFirst();
    }
  }
}
