package io.mangacircus.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock tests move by hand (safe to read from another thread). */
public final class MutableClock implements InstantSource {

  /** Where a clock starts when the test does not care. */
  public static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

  private volatile Instant now;

  public MutableClock() {
    this(START);
  }

  public MutableClock(Instant start) {
    this.now = start;
  }

  @Override
  public Instant instant() {
    return now;
  }

  public synchronized void advance(Duration step) {
    now = now.plus(step);
  }

  public void set(Instant instant) {
    now = instant;
  }
}
