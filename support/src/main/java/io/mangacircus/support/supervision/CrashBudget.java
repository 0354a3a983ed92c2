package io.mangacircus.support.supervision;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts one service's (or one lane's) failures in a rolling window and says when it must be parked. Holds only
 * timestamps, so it is persisted as a list and survives a process restart. Shared here because docs/architecture.md §6 asks
 * for the same crash-budget class for services (launcher) and lanes (scraper); it uses no Vert.x.
 */
public final class CrashBudget {

  /** What the supervisor does after a failure. */
  public enum Verdict { RESTART, PARK }

  private final int maxFailures;
  private final Duration window;
  private final InstantSource clock;
  private final List<Instant> failures = new ArrayList<>();

  /**
   * @param maxFailures failures within {@code window} that park the service (3 by default)
   * @param window the rolling window (one hour by default)
   * @param clock the time source
   * @param persistedFailures failures loaded from the runtime file, in any order
   */
  public CrashBudget(int maxFailures, Duration window, InstantSource clock, List<Instant> persistedFailures) {
    if (maxFailures < 1) {
      throw new IllegalArgumentException("maxFailures must be at least 1");
    }
    this.maxFailures = maxFailures;
    this.window = window;
    this.clock = clock;
    this.failures.addAll(persistedFailures);
    this.failures.sort(null);
  }

  /** Records a failure now and says whether the service may be redeployed. */
  public Verdict recordFailure() {
    failures.add(clock.instant());
    return exhausted() ? Verdict.PARK : Verdict.RESTART;
  }

  /** Whether the failures inside the window have reached the limit. */
  public boolean exhausted() {
    return failuresInWindow() >= maxFailures;
  }

  /** Failures strictly inside the rolling window ending now. */
  public int failuresInWindow() {
    return inWindow().size();
  }

  /** The failures worth persisting: those still inside the window, oldest first. */
  public List<Instant> inWindow() {
    Instant horizon = clock.instant().minus(window);
    return failures.stream().filter(t -> t.isAfter(horizon)).toList();
  }
}
