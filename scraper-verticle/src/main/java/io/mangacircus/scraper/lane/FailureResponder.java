package io.mangacircus.scraper.lane;

import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureAction;
import io.mangacircus.scraper.failure.FailureClassifier;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.RetryPolicy;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out what {@link FailureClassifier} decides for a failure of a source's job, and records the incident: for
 * the lane working on the job, and for the stall watchdog judging it. A lane that no longer holds the job (the
 * watchdog or the operator took it) changes nothing.
 */
public final class FailureResponder {

  private static final Logger LOG = LoggerFactory.getLogger(FailureResponder.class);

  private final JobQueue queue;
  private final String source;
  private final SystemicParserWatch systemic;
  private final InstantSource clock;
  private final RetryPolicy policy;

  private final boolean parserFailuresAreSystemic;

  public FailureResponder(JobQueue queue, String source, SystemicParserWatch systemic, InstantSource clock,
      Duration retryWait) {
    this(queue, source, systemic, clock, retryWait, true);
  }

  /**
   * @param parserFailuresAreSystemic false for sources whose parser failures never mean changed markup (local import)
   */
  public FailureResponder(JobQueue queue, String source, SystemicParserWatch systemic, InstantSource clock,
      Duration retryWait, boolean parserFailuresAreSystemic) {
    this(queue, source, systemic, clock, RetryPolicy.DEFAULTS.withRetryWait(retryWait), parserFailuresAreSystemic);
  }

  /** As above with every retry limit from {@code policy}. */
  public FailureResponder(JobQueue queue, String source, SystemicParserWatch systemic, InstantSource clock,
      RetryPolicy policy, boolean parserFailuresAreSystemic) {
    this.policy = policy;
    this.parserFailuresAreSystemic = parserFailuresAreSystemic;
    this.queue = queue;
    this.source = source;
    this.systemic = systemic;
    this.clock = clock;
  }

  /** Applies the table's action for {@code failure} of {@code job}, which {@code owner} was working on. */
  public void respond(Job job, String owner, Failure failure) {
    Job current = queue.job(job.id()).orElse(null);
    if (current == null || !queue.holds(job.id(), owner)) {
      LOG.info("[LANE {}] {} failure of job {} ignored: the lane no longer holds the job ({})", source,
          failure.kind().wire(), job.id(), failure.message());
      return;
    }
    FailureAction action = FailureClassifier.action(failure, current.networkRetries(), current.stalls(),
        policy);
    String reason = failure.kind().wire() + ": " + failure.message();
    LOG.warn("[LANE {}] job {} ({}) failed: {} → {}", source, job.id(), current.title(), reason, action.description());
    // The incident first: whoever sees the job or lane change can already read why (and an operator's resume that
    // follows the change clears it).
    queue.incidents().record(failure, source, job.id(), action);
    switch (action) {
      case RETRY_LATER -> {
        queue.countNetworkRetry(job.id());
        queue.setback(job.id(), JobState.RETRY_WAIT, reason, true, clock.instant().plus(policy.retryWait()));
      }
      case QUARANTINE -> queue.setback(job.id(), JobState.QUARANTINED, reason, true, null);
      case MARK_UNAVAILABLE -> queue.setback(job.id(), JobState.UNAVAILABLE, reason, false, null);
      case PAUSE_LANE -> {
        queue.lanes().pause(source, reason);
        if (current.state() == JobState.ACTIVE) {
          queue.release(job.id(), owner, "lane paused: " + reason);
        }
      }
      case PAUSE_ALL -> {
        queue.lanes().pauseAll(reason);
        queue.setback(job.id(), JobState.PAUSED, reason, false, null);
      }
      case PAUSE_JOB -> queue.setback(job.id(), JobState.PAUSED, reason, false, null);
      case REQUEUE -> queue.release(job.id(), owner, reason);
    }
    if (failure.kind() == FailureKind.PARSER && parserFailuresAreSystemic && systemic.record(source, job.id())) {
      String why = "systemic parser failure: parser quarantines of several jobs of source " + source
          + " within the window; the source's markup probably changed";
      LOG.error("[LANE {}] {}; the lane is paused until the operator resumes it", source, why);
      queue.incidents().record(new Failure(FailureKind.PARSER, null, why), source, null, FailureAction.PAUSE_LANE);
      queue.lanes().pause(source, why);
    }
  }

  /**
   * Applies the table's action for a stall of {@code job} (the watchdog saw its checkpoint stand still): the first
   * stall requeues it as a system interruption, the next quarantines it (docs/resilience.md).
   */
  public void stalled(Job job, Failure failure) {
    FailureAction action = FailureClassifier.action(failure, job.networkRetries(), job.stalls(), policy);
    LOG.warn("[STALL] job {} ({}) stalled: {} → {}", job.id(), job.title(), failure.message(), action.description());
    queue.incidents().record(failure, source, job.id(), action);
    if (action == FailureAction.REQUEUE) {
      queue.requeueStalled(job.id(), "stalled: " + failure.message() + "; requeued (stall " + (job.stalls() + 1) + ")");
    } else {
      queue.setback(job.id(), JobState.QUARANTINED, "stalled again: " + failure.message(), true, null);
    }
  }
}
