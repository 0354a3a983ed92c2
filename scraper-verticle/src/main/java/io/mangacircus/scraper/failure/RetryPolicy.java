package io.mangacircus.scraper.failure;

import io.mangacircus.support.supervision.Backoff;
import io.mangacircus.support.supervision.CrashBudget;
import io.mangacircus.scraper.ScraperConfig;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * Every retry decision of the scraper in one place (docs/resilience.md): request-level retries and their backoff,
 * job-level retries after network failures and how long a job waits before one, stall requeues, and the lane's crash
 * budget and restart backoff. Read from {@code scraper.failures} by {@link #of}.
 *
 * @param requestRetries retries of one failed request before the failure counts ({@code scraper.failures.requestRetries})
 * @param requestBackoff the first delay between request retries; doubles each time ({@code retryBackoffMs})
 * @param requestBackoffMax the longest delay between request retries, also for a {@code Retry-After}
 * @param jobNetworkRetries job-level retries after network failures; the next failure quarantines the job
 * @param retryWait how long a job waits in {@code retry_wait} before a job-level retry ({@code retryWaitSeconds})
 * @param stallRequeues stalls a job is requeued after; the next stall quarantines it
 * @param laneCrashes crashes of a lane within {@code laneCrashWindow} before the lane is paused
 * @param laneCrashWindow the window the lane's crashes are counted in
 * @param laneRestartBackoff the first delay before a crashed lane goes on; doubles per crash in the window
 * @param laneRestartBackoffMax the longest delay before a crashed lane goes on
 */
public record RetryPolicy(int requestRetries, Duration requestBackoff, Duration requestBackoffMax,
    int jobNetworkRetries, Duration retryWait, int stallRequeues, int laneCrashes, Duration laneCrashWindow,
    Duration laneRestartBackoff, Duration laneRestartBackoffMax) {

  /** Failed attempts after which a job is quarantined instead of retried. */
  public static final int MAX_ATTEMPTS = 5;

  /** The built-in policy: the configuration defaults and the fixed limits. */
  public static final RetryPolicy DEFAULTS = new RetryPolicy(2, Duration.ofSeconds(1), Duration.ofSeconds(30),
      FailureClassifier.JOB_LEVEL_NETWORK_RETRIES, Duration.ofMinutes(5), 1, 3, Duration.ofHours(1),
      Duration.ofSeconds(1), Duration.ofSeconds(60));

  /** The policy a configuration sets: its {@code scraper.failures} keys, the fixed limits for the rest. */
  public static RetryPolicy of(ScraperConfig.Failures failures) {
    return new RetryPolicy(failures.requestRetries(), Duration.ofMillis(failures.retryBackoffMs()),
        DEFAULTS.requestBackoffMax(), DEFAULTS.jobNetworkRetries(), Duration.ofSeconds(failures.retryWaitSeconds()),
        DEFAULTS.stallRequeues(), DEFAULTS.laneCrashes(), DEFAULTS.laneCrashWindow(), DEFAULTS.laneRestartBackoff(),
        DEFAULTS.laneRestartBackoffMax());
  }

  /** The same policy with another {@link #retryWait}. */
  public RetryPolicy withRetryWait(Duration wait) {
    return new RetryPolicy(requestRetries, requestBackoff, requestBackoffMax, jobNetworkRetries, wait, stallRequeues,
        laneCrashes, laneCrashWindow, laneRestartBackoff, laneRestartBackoffMax);
  }

  /**
   * The delay before request retry number {@code retry} (0 for the first): the server's {@code Retry-After} when it
   * sent one, else the backoff doubled per retry; never longer than {@link #requestBackoffMax}.
   *
   * @param retryAfter the wait the server named, or null
   */
  public Duration requestDelay(int retry, Duration retryAfter) {
    long maxMs = requestBackoffMax.toMillis();
    if (retryAfter != null) {
      return Duration.ofMillis(Math.max(1, Math.min(retryAfter.toMillis(), maxMs)));
    }
    return Duration.ofMillis(Math.max(1, Math.min(requestBackoff.toMillis() << Math.min(10, retry), maxMs)));
  }

  /** Whether a job that failed over the network with {@code used} job-level retries spent gets another. */
  public boolean retriesJob(int used) {
    return used < jobNetworkRetries;
  }

  /** Whether a job that stalled after {@code stallsSoFar} earlier stalls is requeued (else quarantined). */
  public boolean requeuesStall(int stallsSoFar) {
    return stallsSoFar < stallRequeues;
  }

  /** A fresh crash budget for a lane. */
  public CrashBudget laneCrashBudget(InstantSource clock) {
    return new CrashBudget(laneCrashes, laneCrashWindow, clock, List.of());
  }

  /** The backoff of a crashed lane's restarts. */
  public Backoff laneRestart() {
    return new Backoff(laneRestartBackoff, 2.0, laneRestartBackoffMax);
  }
}
