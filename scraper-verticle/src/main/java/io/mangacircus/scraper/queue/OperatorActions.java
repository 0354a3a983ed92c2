package io.mangacircus.scraper.queue;

import io.vertx.core.json.JsonObject;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the operator does to a job: confirm, pause, resume, retry, dismiss or delete it, each checked against the
 * job's state (an illegal request is refused and changes nothing); resuming, retrying and removing a job resolve its
 * incidents. Everything here runs under the queue's lock.
 */
final class OperatorActions {

  /** The queue's logger: a removed job is the queue's line. */
  private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

  private final JobTable jobs;
  private final QueueJournal journal;
  private final IncidentStore incidents;

  OperatorActions(JobTable jobs, QueueJournal journal, IncidentStore incidents) {
    this.jobs = jobs;
    this.journal = journal;
    this.incidents = incidents;
  }

  /** {@link JobQueue#confirm}. */
  QueueOutcome confirm(String jobId) {
    Job job = jobs.get(jobId);
    if (job == null) {
      return QueueOutcome.refused(null, QueueOutcome.Refusal.NOT_FOUND, "no job " + jobId);
    }
    if (job.state() != JobState.READY && !(job.state() == JobState.PENDING && !job.confirmed())) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "only a ready job can be confirmed; " + jobId + " is " + job.state().wire());
    }
    Job confirmed = job.withConfirmed();
    jobs.put(confirmed);
    if (job.state() == JobState.PENDING) {
      jobs.commit(confirmed, "job.confirmed", new JsonObject());
      return QueueOutcome.done(confirmed);
    }
    return jobs.move(confirmed, JobState.PENDING, "confirmed by the operator", true, false);
  }

  /** {@link JobQueue#pause}. */
  QueueOutcome pause(String jobId) {
    return operatorMove(jobId, JobState.PAUSED, "paused by the operator");
  }

  /** {@link JobQueue#resume}. */
  QueueOutcome resume(String jobId) {
    Job job = jobs.get(jobId);
    if (job != null && job.state() != JobState.PAUSED) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "only a paused job can be resumed; " + jobId + " is " + job.state().wire());
    }
    incidents.resolve(i -> jobId.equals(i.jobId()));
    return operatorMove(jobId, JobState.PENDING, "resumed by the operator");
  }

  /** {@link JobQueue#retry}. */
  QueueOutcome retry(String jobId) {
    Job job = jobs.get(jobId);
    if (job != null && (job.state() == JobState.ACTIVE || job.state() == JobState.DONE
        || job.state() == JobState.PENDING || job.state() == JobState.READY)) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "nothing to retry: " + jobId + " is " + job.state().wire());
    }
    if (job != null) {
      jobs.put(job.withFailureCounters(0, 0));
      incidents.resolve(i -> jobId.equals(i.jobId()));
    }
    return operatorMove(jobId, JobState.PENDING, "retried by the operator");
  }

  /** {@link JobQueue#dismiss}. */
  QueueOutcome dismiss(String jobId) {
    return remove(jobId, JobQueue.DISMISSABLE, "job.dismissed",
        "only a failed job (paused, retry_wait, unavailable or quarantined) can be dismissed");
  }

  /** {@link JobQueue#delete}. */
  QueueOutcome delete(String jobId) {
    return remove(jobId, Set.of(JobState.DONE), "job.deleted", "only a finished (done) job can be deleted");
  }

  private QueueOutcome remove(String jobId, Set<JobState> allowed, String event, String rule) {
    Job job = jobs.get(jobId);
    if (job == null) {
      return QueueOutcome.refused(null, QueueOutcome.Refusal.NOT_FOUND, "no job " + jobId);
    }
    if (!allowed.contains(job.state()) || job.leaseOwner() != null) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          rule + "; " + jobId + " is " + job.state().wire() + (job.leaseOwner() != null ? " and held by its lane" : ""));
    }
    jobs.remove(job);
    incidents.resolve(i -> jobId.equals(i.jobId()));
    journal.commit(event, new JsonObject().put("jobId", job.id()).put("source", job.source())
        .put("titleId", job.titleId()).put("state", job.state().wire())
        .put("publishedChapters", job.publishedChapters()));
    LOG.info("[QUEUE] job {} ({}/{}, {}) {} by the operator; its {} published chapters stay in the library", jobId,
        job.source(), job.titleId(), job.state().wire(), event.equals("job.deleted") ? "deleted" : "dismissed",
        job.publishedChapters());
    return QueueOutcome.done(job);
  }

  private QueueOutcome operatorMove(String jobId, JobState target, String why) {
    Job job = jobs.get(jobId);
    if (job == null) {
      return QueueOutcome.refused(null, QueueOutcome.Refusal.NOT_FOUND, "no job " + jobId);
    }
    if (!JobTransitions.allows(job.state(), target)) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "a " + job.state().wire() + " job cannot become " + target.wire());
    }
    return jobs.move(job, target, why, false, false);
  }
}
