package io.mangacircus.scraper.lane;

import io.mangacircus.scraper.pacing.Delays;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureClassifier;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.LaneSettings;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.Source;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rules a lane follows around every source call and checkpoint of the job it holds: it stops at a checkpoint when
 * asked, paused, yielding memory or when its lease is lost; it waits out a source's short holds in place; and it sends
 * what is not the job's failure (holds, 429, open circuits) where it belongs, everything else to
 * {@link FailureResponder}.
 */
final class LaneRules {

  /** The lane's log: its lines keep the downloader's name whichever part writes them. */
  private static final Logger LOG = LoggerFactory.getLogger(JobDownloader.class);

  /** A hold up to this long is waited out with the job active; a longer one gives the job back to the queue. */
  static final Duration LONGEST_WAIT_IN_PLACE = Duration.ofMinutes(2);
  private static final long WAIT_STEP_MS = 1_000;

  private final Vertx vertx;
  private final Source source;
  private final SourceConfig sourceConfig;
  private final JobQueue queue;
  private final InstantSource clock;
  private final Duration lease;
  private final String owner;
  private final BooleanSupplier stopRequested;
  private final FailureResponder failures;

  LaneRules(Vertx vertx, Source source, SourceConfig sourceConfig, JobQueue queue, InstantSource clock, Duration lease,
      String owner, BooleanSupplier stopRequested, FailureResponder failures) {
    this.vertx = vertx;
    this.source = source;
    this.sourceConfig = sourceConfig;
    this.queue = queue;
    this.clock = clock;
    this.lease = lease;
    this.owner = owner;
    this.stopRequested = stopRequested;
    this.failures = failures;
  }

  /**
   * Calls the source for an active job, waiting out any hold it announces ({@link FetchOutcome.Held}: MangaDex's
   * at-home limit, a spent budget) in place — the job stays active, its lease renewed, nothing recorded as a failure —
   * and asking again when the hold ends. A hold longer than {@link #LONGEST_WAIT_IN_PLACE}, or a stop (lane paused,
   * shutdown, yield) during the wait, comes back as the {@code Held} outcome.
   */
  <T> Future<FetchOutcome<T>> waitingOutHolds(Job job, Supplier<Future<FetchOutcome<T>>> call) {
    return call.get().compose(outcome -> {
      if (!(outcome instanceof FetchOutcome.Held<T> held)) {
        return Future.succeededFuture(outcome);
      }
      queue.lanes().hold(source.name(), held.until(), held.reason());
      if (Duration.between(clock.instant(), held.until()).compareTo(LONGEST_WAIT_IN_PLACE) > 0) {
        return Future.succeededFuture(outcome);
      }
      LOG.info("[LANE {}] {} until {}; job {} stays active", source.name(), held.reason(), held.until(), job.id());
      return waitUntil(job, held.until()).compose(go -> go ? waitingOutHolds(job, call)
          : Future.succeededFuture(outcome));
    });
  }

  /** Waits until {@code until} in steps, renewing the lease; false when the lane must stop (the job is released). */
  private Future<Boolean> waitUntil(Job job, Instant until) {
    if (stopNow(job)) {
      return Future.succeededFuture(false);
    }
    long ms = Duration.between(clock.instant(), until).toMillis();
    if (ms <= 0) {
      return Future.succeededFuture(true);
    }
    return delay(Math.min(ms, WAIT_STEP_MS)).compose(v -> waitUntil(job, until));
  }

  /**
   * What the lane does when nothing could be sent or the source refused with 429 — none of it a failure of the job:
   * a hold makes the lane wait (kept in {@code queue.json}; the job goes back to the queue at once unless it stopped
   * already), an open circuit sends the job to {@code retry_wait} until the circuit lets a trial call through,
   * attempts untouched. Everything else goes to {@link FailureResponder}.
   */
  void failed(Job job, FetchOutcome<?> outcome, String where) {
    if (outcome instanceof FetchOutcome.Held<?> held) {
      heldBack(job, held.until(), held.reason());
      return;
    }
    if (outcome instanceof FetchOutcome.RateLimited<?> limited) {
      Instant until = clock.instant().plus(limited.retryAfter());
      LOG.warn("[LANE {}] {}: {}; the lane waits until {} and goes on by itself", source.name(), where,
          limited.message(), until);
      heldBack(job, until, "waiting: " + source.name() + " refused a request (429)");
      return;
    }
    if (outcome instanceof FetchOutcome.CircuitOpen<?> open) {
      if (!queue.holds(job.id(), owner)) {
        return;
      }
      String reason = "circuit open until " + open.until();
      LOG.info("[LANE {}] job {} ({}) waits: {} (nothing was sent; attempts unchanged)", source.name(), job.id(),
          job.title(), reason);
      queue.setback(job.id(), JobState.RETRY_WAIT, reason, false, open.until());
      return;
    }
    Failure failure = FailureClassifier.classify(outcome);
    failures.respond(job, owner, new Failure(failure.kind(), failure.httpStatus(), where + ": " + failure.message()));
  }

  /** A failure of the job itself, which {@link FailureResponder} answers as its kind prescribes. */
  void failed(Job job, Failure failure) {
    failures.respond(job, owner, failure);
  }

  /** The lane holds until {@code until}; the job, if this lane still holds it, goes back to the queue at once. */
  private void heldBack(Job job, Instant until, String reason) {
    queue.lanes().hold(source.name(), until, reason);
    Job current = queue.job(job.id()).orElse(null);
    if (current == null || !owner.equals(current.leaseOwner())) {
      return;
    }
    String why = reason + " until " + until;
    if (current.state() == JobState.ACTIVE) {
      queue.release(job.id(), owner, why);
    } else {
      queue.releaseInspection(job.id(), owner, why);
    }
  }

  /** The library's disk failed the job: classified as the I/O error it is. */
  void storageFailed(Job job, Throwable error) {
    Failure failure = error instanceof IOException io ? FailureClassifier.classify(io)
        : new Failure(FailureKind.UNKNOWN, null, "storage: " + error);
    failures.respond(job, owner, failure);
  }

  /**
   * A checkpoint: true when the lane must stop here (stop asked, lane paused, memory yield: the job is released) or
   * its lease could not be renewed.
   */
  boolean stopNow(Job job) {
    if (stopRequested.getAsBoolean()) {
      queue.release(job.id(), owner, "the lane stopped at a checkpoint");
      return true;
    }
    LaneSettings lane = queue.lanes().lane(source.name());
    if (lane.paused()) {
      queue.release(job.id(), owner, "lane paused: " + lane.pauseReason());
      return true;
    }
    String yieldReason = queue.lanes().yieldReason();
    if (yieldReason != null) {
      queue.release(job.id(), owner, "memory yield: " + yieldReason);
      return true;
    }
    return !renewed(job);
  }

  /** Renews the job's lease; false when this lane no longer holds it. */
  boolean renewed(Job job) {
    return queue.renew(job.id(), owner, lease);
  }

  /** The lane's delays now: the operator's run-time setting, else the configured one. */
  Pacing pacing() {
    return Pacing.of(sourceConfig, queue.lanes().lane(source.name()));
  }

  /** Completes after {@code ms} on a timer (at once for none). */
  Future<Void> delay(long ms) {
    return Delays.after(vertx, ms);
  }
}
