package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.failure.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job state machine as a lane drives it: claiming a job (expired leases reclaimed and due retries woken first),
 * recording its inspection, renewing, finishing or giving back its lease, and setting it back after a failure; only
 * the lease holder may move a job it holds. Everything here runs under the queue's lock.
 */
final class LaneWork {

  /** The queue's logger: an expired lease is the queue's line. */
  private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

  private final JobTable jobs;
  private final QueueJournal journal;
  private final LaneSettingsStore lanes;
  private final ContactTimes contacts;
  private final InstantSource clock;

  LaneWork(JobTable jobs, QueueJournal journal, LaneSettingsStore lanes, ContactTimes contacts, InstantSource clock) {
    this.jobs = jobs;
    this.journal = journal;
    this.lanes = lanes;
    this.contacts = contacts;
    this.clock = clock;
  }

  /** {@link JobQueue#claim}. */
  Optional<JobQueue.Claim> claim(String source, String owner, Duration lease) {
    Instant now = clock.instant();
    reclaimExpired(now);
    if (!lanes.mayClaim(source, now)) {
      return Optional.empty();
    }
    for (Job job : jobs.all()) {
      if (!job.source().equals(source) || job.state() != JobState.PENDING
          || (job.leasedUntil() != null && job.leasedUntil().isAfter(now))) {
        continue;
      }
      if (!job.inspected()) {
        Job leased = job.withLease(now.plus(lease), owner);
        jobs.put(leased);
        return Optional.of(new JobQueue.Claim(leased, JobQueue.Work.INSPECT));
      }
      if (job.confirmed()) {
        Job active = job.with(JobState.ACTIVE, now, null).withLease(now.plus(lease), owner);
        jobs.put(active);
        jobs.commit(active, "job.state", JobTable.transition(job, active, "claimed by " + owner));
        return Optional.of(new JobQueue.Claim(active, JobQueue.Work.DOWNLOAD));
      }
    }
    return Optional.empty();
  }

  /** {@link JobQueue#inspected}. */
  QueueOutcome inspected(String jobId, String owner, String title, List<ChapterEntry> chapters, AgeRating rating) {
    Job job = jobs.get(jobId);
    if (job == null || !owner.equals(job.leaseOwner()) || job.state() != JobState.PENDING) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "inspection lease lost");
    }
    Map<String, ChapterEntry> known = new HashMap<>();
    job.chapters().forEach(c -> known.put(c.id(), c));
    List<ChapterEntry> merged = new ArrayList<>();
    for (ChapterEntry chapter : chapters) {
      merged.add(known.getOrDefault(chapter.id(), chapter));
    }
    Instant now = clock.instant();
    contacts.contacted(job.source(), now);
    Job inspected = job.withInspection(title, merged, job.confirmed(), rating).withLease(null, null);
    Job next = job.confirmed() ? inspected.with(JobState.PENDING, now, null)
        : inspected.with(JobState.READY, now, null);
    jobs.put(next);
    jobs.commit(next, "job.inspected", JobTable.transition(job, next, merged.size() + " chapters"));
    return QueueOutcome.done(next);
  }

  /** {@link JobQueue#renew}. */
  boolean renew(String jobId, String owner, Duration lease) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
      return false;
    }
    Instant now = clock.instant();
    jobs.put(job.withLease(now.plus(lease), owner));
    contacts.contacted(job.source(), now);
    return true;
  }

  /** {@link JobQueue#holds}. */
  boolean holds(String jobId, String owner) {
    Job job = jobs.get(jobId);
    return job != null && owner.equals(job.leaseOwner());
  }

  /** {@link JobQueue#finish}. */
  QueueOutcome finish(String jobId, String owner) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "lease lost");
    }
    if (!job.allChaptersSettled()) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "chapters still open");
    }
    return jobs.move(job, JobState.DONE, job.publishedChapters() + " chapters published", false, false);
  }

  /** {@link JobQueue#release}. */
  QueueOutcome release(String jobId, String owner, String why) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not held by " + owner);
    }
    return jobs.move(job, JobState.PENDING, why, false, true);
  }

  /** {@link JobQueue#releaseInspection}. */
  QueueOutcome releaseInspection(String jobId, String owner, String why) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.PENDING || !owner.equals(job.leaseOwner())) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not inspected by " + owner);
    }
    Job back = job.withLease(null, null).withCounters(job.attempts(), job.interruptions() + 1);
    jobs.put(back);
    jobs.commit(back, "job.state", JobTable.transition(job, back, why));
    return QueueOutcome.done(back);
  }

  /** {@link JobQueue#setback}. */
  QueueOutcome setback(String jobId, JobState target, String why, boolean countsAsAttempt, Instant retryAt) {
    Job job = jobs.get(jobId);
    if (job == null) {
      return QueueOutcome.refused(null, QueueOutcome.Refusal.NOT_FOUND, "no job " + jobId);
    }
    Job counted = countsAsAttempt ? job.withCounters(job.attempts() + 1, job.interruptions()) : job;
    JobState effective = countsAsAttempt && counted.attempts() >= RetryPolicy.MAX_ATTEMPTS ? JobState.QUARANTINED
        : target;
    String reason = effective != target ? why + " (attempt " + counted.attempts() + " of " + RetryPolicy.MAX_ATTEMPTS
        + ": quarantined)" : why;
    Job withRetry = effective == JobState.RETRY_WAIT ? counted.withRetryAt(retryAt) : counted;
    jobs.put(withRetry);
    return jobs.move(withRetry, effective, reason, false, false);
  }

  /** {@link JobQueue#countNetworkRetry}. */
  void countNetworkRetry(String jobId) {
    Job job = jobs.get(jobId);
    if (job != null) {
      jobs.put(job.withFailureCounters(job.networkRetries() + 1, job.stalls()));
      journal.save();
    }
  }

  /** {@link JobQueue#requeueStalled}. */
  QueueOutcome requeueStalled(String jobId, String why) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not active");
    }
    Job counted = job.withFailureCounters(job.networkRetries(), job.stalls() + 1);
    jobs.put(counted);
    return jobs.move(counted, JobState.PENDING, why, false, true);
  }

  private void reclaimExpired(Instant now) {
    for (Job job : List.copyOf(jobs.all())) {
      boolean leaseExpired = job.leasedUntil() != null && !job.leasedUntil().isAfter(now);
      if (job.state() == JobState.ACTIVE && leaseExpired) {
        Job back = job.with(JobState.PENDING, now, "lease of " + job.leaseOwner() + " expired")
            .withCounters(job.attempts(), job.interruptions() + 1);
        jobs.put(back);
        LOG.warn("[QUEUE] job {} ({}): lease of {} expired at {}; back to pending (system interruption, attempts "
            + "unchanged)", job.id(), job.title(), job.leaseOwner(), job.leasedUntil());
        jobs.commit(back, "job.state", JobTable.transition(job, back, back.reason()));
      } else if (job.state() == JobState.PENDING && leaseExpired) {
        jobs.put(job.withLease(null, null));
      } else if (job.state() == JobState.RETRY_WAIT && job.retryAt() != null && !job.retryAt().isAfter(now)) {
        Job back = job.with(JobState.PENDING, now, null);
        jobs.put(back);
        jobs.commit(back, "job.state", JobTable.transition(job, back, "retry time reached"));
      }
    }
  }

  /** {@link JobQueue#releaseAllAtStartup}: every active job and inspection lease given back (inside a batch). */
  List<Job> releaseAll() {
    List<Job> released = new ArrayList<>();
    for (Job job : List.copyOf(jobs.all())) {
      if (job.state() == JobState.ACTIVE) {
        jobs.move(job, JobState.PENDING, "the scraper stopped while it was active", false, true);
        released.add(job);
      } else if (job.leaseOwner() != null) {
        jobs.put(job.withLease(null, null));
      }
    }
    return released;
  }
}
