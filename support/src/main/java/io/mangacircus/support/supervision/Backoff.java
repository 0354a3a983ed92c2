package io.mangacircus.support.supervision;

import java.time.Duration;

/** Exponential redeploy delay: initial × multiplier^(n−1) for the n-th failure in the window, capped. */
public final class Backoff {

  private final Duration initial;
  private final double multiplier;
  private final Duration max;

  public Backoff(Duration initial, double multiplier, Duration max) {
    if (initial.isNegative() || multiplier < 1.0 || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs initial >= 0, multiplier >= 1 and max >= initial");
    }
    this.initial = initial;
    this.multiplier = multiplier;
    this.max = max;
  }

  /** The delay before redeploying after the {@code failureCount}-th failure (1-based). */
  public Duration delayFor(int failureCount) {
    int n = Math.max(1, failureCount);
    double millis = initial.toMillis() * Math.pow(multiplier, n - 1);
    if (millis >= max.toMillis() || Double.isInfinite(millis)) {
      return max;
    }
    return Duration.ofMillis((long) millis);
  }
}
