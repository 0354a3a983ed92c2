package io.mangacircus.scraper.queue;

import io.vertx.core.json.JsonObject;
import java.time.InstantSource;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue's jobs by id, in the order they were added, with each title's jobs indexed; and the one way a job changes
 * state: checked against {@link JobTransitions}, committed (its journal and {@code events.log} lines), its listeners
 * told once the lock is released. Everything here runs under the queue's lock.
 */
final class JobTable {

  /** The queue's logger: a refused transition is the queue's line. */
  private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

  private final LinkedHashMap<String, Job> jobs = new LinkedHashMap<>();
  private final TitleIndex titles = new TitleIndex();
  private final QueueJournal journal;
  private final InstantSource clock;

  JobTable(QueueJournal journal, InstantSource clock) {
    this.journal = journal;
    this.clock = clock;
  }

  /** The job with this id, or null. */
  Job get(String id) {
    return jobs.get(id);
  }

  /** Every job, in the order they were added (a live view: copy it before changing jobs while walking). */
  Collection<Job> all() {
    return jobs.values();
  }

  /** The title's jobs, in the queue's order. */
  List<Job> ofTitle(String source, String titleId) {
    return titles.ids(source, titleId).stream().map(jobs::get).toList();
  }

  /** Adds a new job at the end of the queue. */
  void add(Job job) {
    jobs.put(job.id(), job);
    titles.add(job);
  }

  /** A job's new version replaces the old one, in its place. */
  void put(Job job) {
    jobs.put(job.id(), job);
  }

  /** Removes a job from the queue. */
  void remove(Job job) {
    jobs.remove(job.id());
    titles.remove(job);
  }

  /**
   * Moves a job to {@code target} when the transition is legal (else refused and logged), committed as a
   * {@code job.state} event.
   *
   * @param systemInterruption counts an interruption that was the system's doing (no attempt consumed)
   */
  QueueOutcome move(Job job, JobState target, String why, boolean operator, boolean systemInterruption) {
    if (!JobTransitions.allows(job.state(), target)) {
      LOG.warn("[QUEUE] refused {} → {} for job {}: not a legal transition", job.state().wire(), target.wire(),
          job.id());
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "a " + job.state().wire() + " job cannot become " + target.wire());
    }
    Job moved = job.with(target, clock.instant(), why);
    if (systemInterruption) {
      moved = moved.withCounters(moved.attempts(), moved.interruptions() + 1);
    }
    jobs.put(job.id(), moved);
    commit(moved, "job.state", transition(job, moved, why).put("operator", operator)
        .put("systemInterruption", systemInterruption));
    return QueueOutcome.done(moved);
  }

  /** The event of a state change. */
  static JsonObject transition(Job before, Job after, String why) {
    return new JsonObject().put("from", before.state().wire()).put("to", after.state().wire()).put("reason", why);
  }

  /** Commits a job's change as the event {@code type}; the listeners hear of the job when the lock is released. */
  void commit(Job job, String type, JsonObject event) {
    journal.commit(type, event.put("jobId", job.id()).put("source", job.source()).put("titleId", job.titleId()));
    journal.tell(listener -> listener.jobChanged(job));
  }
}
