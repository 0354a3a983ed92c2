package io.mangacircus.scraper.source;

import java.time.Duration;
import java.time.Instant;

/**
 * The request rate a site is given after it refused requests we sent within its published limit: halved on every 429,
 * raised by a tenth after each clean minute (no 429), never above the configured maximum and never below one request
 * a minute. Decides only; {@link RequestLimiter} spaces requests by it. One per site, like the limiter.
 */
public final class LearnedRate {

  /** How long without a 429 before the rate goes up a step. */
  static final Duration CLEAN = Duration.ofMinutes(1);
  private static final double LOWEST = 1.0 / 60;

  private final double configured;
  private double rate;
  private Instant since;

  /** @param configuredRps the most requests a second ever allowed */
  public LearnedRate(double configuredRps) {
    this.configured = configuredRps;
    this.rate = configuredRps;
  }

  /** The site answered 429 at {@code now}: half the rate. */
  public synchronized void refused(Instant now) {
    rate = Math.max(LOWEST, current(now) / 2);
    since = now;
  }

  /** Requests a second allowed at {@code now}: a tenth more per clean minute since the last 429, up to the maximum. */
  public synchronized double current(Instant now) {
    while (since != null && rate < configured && !now.isBefore(since.plus(CLEAN))) {
      rate = Math.min(configured, rate * 1.1);
      since = since.plus(CLEAN);
    }
    if (rate >= configured) {
      since = null;
    }
    return rate;
  }

  /** The configured maximum. */
  public double configured() {
    return configured;
  }

  /** The least time between two starts at {@code now}'s rate. */
  public Duration gap(Instant now) {
    return Duration.ofNanos((long) Math.ceil(1_000_000_000L / current(now)));
  }
}
