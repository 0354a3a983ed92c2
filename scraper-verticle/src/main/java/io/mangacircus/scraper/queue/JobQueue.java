package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.library.PublishedChapter;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureAction;
import io.mangacircus.scraper.failure.Incident;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The download queue: the scraper's only copy of jobs and lane settings. Every change goes through here, is checked
 * against the state machine and the stage lattice, persisted to {@code queue.json} and appended to
 * {@code events.log} before the caller learns it happened. Thread-safe: lanes (worker threads) and operator
 * requests share it.
 */
public final class JobQueue {

  private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

  /** Failed attempts after which a job is quarantined instead of retried. */
  public static final int MAX_ATTEMPTS = 5;

  /** Incidents kept in {@code queue.json}; older ones are dropped. */
  public static final int MAX_INCIDENTS = 200;

  /** What a lane is to do with a claimed job. */
  public enum Work { INSPECT, DOWNLOAD }

  /** A lane's claim on a job. */
  public record Claim(Job job, Work work) {
  }

  /** A chapter whose work had begun when the snapshot was taken (for startup recovery). */
  public record OpenChapter(String jobId, String source, String titleId, ChapterEntry chapter) {
  }

  private final QueueStore store;
  private final EventLog events;
  private final InstantSource clock;
  private final Set<String> sources;
  private final QueueListener listener;
  private final LinkedHashMap<String, Job> jobs = new LinkedHashMap<>();
  private final Map<String, LaneSettings> lanes = new HashMap<>();
  private final java.util.ArrayDeque<Incident> incidents = new java.util.ArrayDeque<>();
  private volatile String yieldReason;

  /**
   * Loads the queue from {@code store}.
   *
   * @param sources the configured source names; jobs for other sources are kept but never claimed
   */
  private final Map<String, Instant> lastContact = new HashMap<>();

  public JobQueue(QueueStore store, EventLog events, InstantSource clock, Set<String> sources, QueueListener listener) {
    this.store = store;
    this.events = events;
    this.clock = clock;
    this.sources = Set.copyOf(sources);
    this.listener = listener;
    QueueFile file = store.load();
    file.jobs().forEach(job -> jobs.put(job.id(), job));
    lanes.putAll(file.lanes());
    incidents.addAll(file.incidents());
  }

  /** Every job, in the order they were added. */
  public synchronized List<Job> jobs() {
    return List.copyOf(jobs.values());
  }

  public synchronized Optional<Job> job(String id) {
    return Optional.ofNullable(jobs.get(id));
  }

  /** The run-time settings of a source's lane. */
  public synchronized LaneSettings lane(String source) {
    return lanes.getOrDefault(source, LaneSettings.defaults());
  }

  /** The configured sources. */
  public Set<String> sources() {
    return sources;
  }

  // ---- adding and claiming ------------------------------------------------------------------------------------

  /**
   * What adding a title did.
   *
   * @param outcome the job (new or the outstanding one), or why nothing was added
   * @param created whether a new job was created
   * @param supersededJobId the finished job of the same title the new job replaced, else null
   */
  public record Addition(QueueOutcome outcome, boolean created, String supersededJobId) {
  }

  /**
   * Adds a title; an outstanding job for the same source and title is returned instead of a second one.
   *
   * @param autoConfirm whether the download starts right after inspection, without an operator's confirmation
   */
  public QueueOutcome add(String source, String titleId, boolean autoConfirm) {
    return addTitle(source, titleId, autoConfirm).outcome();
  }

  /**
   * Adds a title and says how: a new job ({@code created}), possibly superseding the title's finished job (the queue
   * keeps one job per title; {@code events.log} keeps the history), or the outstanding job already there.
   */
  public synchronized Addition addTitle(String source, String titleId, boolean autoConfirm) {
    if (!sources.contains(source)) {
      return new Addition(QueueOutcome.refused(null, QueueOutcome.Refusal.UNKNOWN_SOURCE,
          "unknown source '" + source + "' (configured: " + String.join(", ", sources) + ")"), false, null);
    }
    Optional<Job> existing = jobs.values().stream()
        .filter(j -> j.source().equals(source) && j.titleId().equals(titleId) && j.state().outstanding())
        .findFirst();
    if (existing.isPresent()) {
      return new Addition(QueueOutcome.done(existing.get()), false, null);
    }
    List<Job> finished = jobs.values().stream()
        .filter(j -> j.source().equals(source) && j.titleId().equals(titleId) && j.state() == JobState.DONE).toList();
    finished.forEach(j -> jobs.remove(j.id()));
    Instant now = clock.instant();
    Job job = new Job("j-" + UUID.randomUUID().toString().substring(0, 8), source, titleId, titleId, JobState.PENDING,
        false, autoConfirm, 0, 0, now, now, null, null, null, null, List.of(), 0, 0);
    jobs.put(job.id(), job);
    commit(job, "job.added", new JsonObject().put("autoConfirm", autoConfirm)
        .put("supersedes", new io.vertx.core.json.JsonArray(finished.stream().map(Job::id).toList())));
    String superseded = finished.isEmpty() ? null : finished.get(finished.size() - 1).id();
    if (superseded != null) {
      LOG.info("[QUEUE] job {} for {}/{} supersedes finished job {}", job.id(), source, titleId, superseded);
    }
    return new Addition(QueueOutcome.done(job), true, superseded);
  }

  /**
   * The next piece of work for a source's lane. Every poll first returns jobs whose lease expired to
   * {@code pending} (a system interruption: no attempt consumed) and wakes {@code retry_wait} jobs whose time came.
   */
  public synchronized Optional<Claim> claim(String source, String owner, Duration lease) {
    Instant now = clock.instant();
    reclaimExpired(now);
    if (lane(source).paused() || yieldReason != null) {
      return Optional.empty();
    }
    for (Job job : jobs.values()) {
      if (!job.source().equals(source) || job.state() != JobState.PENDING
          || (job.leasedUntil() != null && job.leasedUntil().isAfter(now))) {
        continue;
      }
      if (!job.inspected()) {
        Job leased = job.withLease(now.plus(lease), owner);
        jobs.put(job.id(), leased);
        return Optional.of(new Claim(leased, Work.INSPECT));
      }
      if (job.confirmed()) {
        Job active = job.with(JobState.ACTIVE, now, null).withLease(now.plus(lease), owner);
        jobs.put(job.id(), active);
        commit(active, "job.state", transition(job, active, "claimed by " + owner));
        return Optional.of(new Claim(active, Work.DOWNLOAD));
      }
    }
    return Optional.empty();
  }

  private void reclaimExpired(Instant now) {
    for (Job job : List.copyOf(jobs.values())) {
      boolean leaseExpired = job.leasedUntil() != null && !job.leasedUntil().isAfter(now);
      if (job.state() == JobState.ACTIVE && leaseExpired) {
        Job back = job.with(JobState.PENDING, now, "lease of " + job.leaseOwner() + " expired")
            .withCounters(job.attempts(), job.interruptions() + 1);
        jobs.put(job.id(), back);
        LOG.warn("[QUEUE] job {} ({}): lease of {} expired at {}; back to pending (system interruption, attempts "
            + "unchanged)", job.id(), job.title(), job.leaseOwner(), job.leasedUntil());
        commit(back, "job.state", transition(job, back, back.reason()));
      } else if (job.state() == JobState.PENDING && leaseExpired) {
        jobs.put(job.id(), job.withLease(null, null));
      } else if (job.state() == JobState.RETRY_WAIT && job.retryAt() != null && !job.retryAt().isAfter(now)) {
        Job back = job.with(JobState.PENDING, now, null);
        jobs.put(job.id(), back);
        commit(back, "job.state", transition(job, back, "retry time reached"));
      }
    }
  }

  /** Records an inspection: the title and its chapters; the job becomes {@code ready}, or pending when confirmed. */
  public synchronized QueueOutcome inspected(String jobId, String owner, String title, List<ChapterEntry> chapters) {
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
    lastContact.put(job.source(), now);
    Job inspected = job.withInspection(title, merged, job.confirmed()).withLease(null, null);
    Job next = job.confirmed() ? inspected.with(JobState.PENDING, now, null) : inspected.with(JobState.READY, now, null);
    jobs.put(jobId, next);
    commit(next, "job.inspected", transition(job, next, merged.size() + " chapters"));
    return QueueOutcome.done(next);
  }

  // ---- lane progress ------------------------------------------------------------------------------------------

  /** Renews an active job's lease at a checkpoint; false when the lane no longer holds it (then it must stop). */
  public synchronized boolean renew(String jobId, String owner, Duration lease) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
      return false;
    }
    jobs.put(jobId, job.withLease(clock.instant().plus(lease), owner));
    lastContact.put(job.source(), clock.instant());
    return true;
  }

  /** What the scraper knows of a source, apart from job completion (issue #6's source health). */
  public record SourceCoverage(long titles, long chaptersFound, long chaptersPublished, Instant lastContactAt) {
  }

  /**
   * A source's coverage: titles with a job, English chapters its last inspections listed, chapters published, and the
   * last successful contact since this start (an inspection or a validated page), or null.
   */
  public synchronized SourceCoverage coverage(String source) {
    List<Job> mine = jobs.values().stream().filter(j -> j.source().equals(source)).toList();
    return new SourceCoverage(mine.stream().map(Job::titleId).distinct().count(),
        mine.stream().mapToLong(j -> j.chapters().size()).sum(),
        mine.stream().mapToLong(Job::publishedChapters).sum(), lastContact.get(source));
  }

  /**
   * Records a chapter's stage. A write that would move it backwards is refused and logged.
   *
   * @return whether it was recorded
   */
  public synchronized boolean stage(String jobId, String chapterId, ChapterStage next, int pages, String fingerprint,
      String reason) {
    return stage(jobId, chapterId, next, pages, fingerprint, reason, null);
  }

  /**
   * Records that a chapter is published, with what the library holds for it; listeners are told (the event
   * {@code mc.library.published} carries it).
   *
   * @return whether it was recorded
   */
  public synchronized boolean published(String jobId, String chapterId, int pages, PublishedChapter where) {
    return stage(jobId, chapterId, ChapterStage.PUBLISHED, pages, where.manifest().fingerprint(), null, where);
  }

  private boolean stage(String jobId, String chapterId, ChapterStage next, int pages, String fingerprint,
      String reason, PublishedChapter where) {
    Job job = jobs.get(jobId);
    if (job == null) {
      return false;
    }
    ChapterEntry current = job.chapters().stream().filter(c -> c.id().equals(chapterId)).findFirst().orElse(null);
    if (current == null) {
      return false;
    }
    if (!StageLattice.allows(current.stage(), next)) {
      LOG.warn("[QUEUE] refused to move chapter {} of job {} back from {} to {}", chapterId, jobId,
          current.stage().wire(), next.wire());
      events.append("chapter.stage.refused", clock.instant(), new JsonObject().put("jobId", jobId)
          .put("chapterId", chapterId).put("from", current.stage().wire()).put("to", next.wire()));
      return false;
    }
    ChapterEntry updated = current.withStage(next, pages, fingerprint, reason);
    if (updated.equals(current)) {
      return true;
    }
    Job changed = job.withChapters(replace(job.chapters(), updated), clock.instant());
    jobs.put(jobId, changed);
    commit(changed, "chapter.stage", new JsonObject().put("chapterId", chapterId).put("number", current.number())
        .put("from", current.stage().wire()).put("to", next.wire()).put("pages", pages).put("reason", reason));
    if (next == ChapterStage.PUBLISHED && where != null) {
      listener.chapterPublished(changed, updated, where);
    }
    return true;
  }

  /** Marks an active job done once every chapter is settled. */
  public synchronized QueueOutcome finish(String jobId, String owner) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "lease lost");
    }
    if (!job.allChaptersSettled()) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "chapters still open");
    }
    return move(job, JobState.DONE, job.publishedChapters() + " chapters published", false, false);
  }

  /** Gives an active job back without consuming an attempt (shutdown, lane pause, a lane crash). */
  public synchronized QueueOutcome release(String jobId, String owner, String why) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not held by " + owner);
    }
    return move(job, JobState.PENDING, why, false, true);
  }

  /**
   * Moves a job a lane worked on to a failure state. A counted failure that reaches {@link #MAX_ATTEMPTS} quarantines.
   *
   * @param retryAt for {@code retry_wait}: when it becomes pending again
   */
  public synchronized QueueOutcome setback(String jobId, JobState target, String why, boolean countsAsAttempt,
      Instant retryAt) {
    Job job = jobs.get(jobId);
    if (job == null) {
      return QueueOutcome.refused(null, QueueOutcome.Refusal.NOT_FOUND, "no job " + jobId);
    }
    Job counted = countsAsAttempt ? job.withCounters(job.attempts() + 1, job.interruptions()) : job;
    JobState effective = countsAsAttempt && counted.attempts() >= MAX_ATTEMPTS ? JobState.QUARANTINED : target;
    String reason = effective != target ? why + " (attempt " + counted.attempts() + " of " + MAX_ATTEMPTS
        + ": quarantined)" : why;
    Job withRetry = effective == JobState.RETRY_WAIT ? counted.withRetryAt(retryAt) : counted;
    jobs.put(jobId, withRetry);
    return move(withRetry, effective, reason, false, false);
  }

  // ---- operator requests --------------------------------------------------------------------------------------

  /** The operator allows a {@code ready} job to download. */
  public synchronized QueueOutcome confirm(String jobId) {
    Job job = jobs.get(jobId);
    if (job == null) {
      return QueueOutcome.refused(null, QueueOutcome.Refusal.NOT_FOUND, "no job " + jobId);
    }
    if (job.state() != JobState.READY && !(job.state() == JobState.PENDING && !job.confirmed())) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "only a ready job can be confirmed; " + jobId + " is " + job.state().wire());
    }
    Job confirmed = job.withConfirmed();
    jobs.put(jobId, confirmed);
    if (job.state() == JobState.PENDING) {
      commit(confirmed, "job.confirmed", new JsonObject());
      return QueueOutcome.done(confirmed);
    }
    return move(confirmed, JobState.PENDING, "confirmed by the operator", true, false);
  }

  /** The operator pauses a job; an active one stops at its next checkpoint. */
  public synchronized QueueOutcome pause(String jobId) {
    return operatorMove(jobId, JobState.PAUSED, "paused by the operator");
  }

  /** The operator resumes a paused job. */
  public synchronized QueueOutcome resume(String jobId) {
    Job job = jobs.get(jobId);
    if (job != null && job.state() != JobState.PAUSED) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "only a paused job can be resumed; " + jobId + " is " + job.state().wire());
    }
    resolveIncidents(i -> jobId.equals(i.jobId()));
    return operatorMove(jobId, JobState.PENDING, "resumed by the operator");
  }

  /** The operator retries a paused, waiting, unavailable or quarantined job; staged pages are kept. */
  public synchronized QueueOutcome retry(String jobId) {
    Job job = jobs.get(jobId);
    if (job != null && (job.state() == JobState.ACTIVE || job.state() == JobState.DONE
        || job.state() == JobState.PENDING || job.state() == JobState.READY)) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "nothing to retry: " + jobId + " is " + job.state().wire());
    }
    if (job != null) {
      jobs.put(jobId, job.withFailureCounters(0, 0));
      resolveIncidents(i -> jobId.equals(i.jobId()));
    }
    return operatorMove(jobId, JobState.PENDING, "retried by the operator");
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
    return move(job, target, why, false, false);
  }

  /** Pauses a source's lane: its active job stops at the next checkpoint and nothing new is claimed. */
  public synchronized void pauseLane(String source, String why) {
    updateLane(source, s -> s.paused(why), new JsonObject().put("paused", true).put("reason", why));
  }

  public synchronized void resumeLane(String source) {
    resolveIncidents(i -> source.equals(i.source()) && i.jobId() == null
        || source.equals(i.source()) && FailureAction.PAUSE_LANE.description().equals(i.action())
        || FailureAction.PAUSE_ALL.description().equals(i.action()));
    updateLane(source, LaneSettings::resumed, new JsonObject().put("paused", false));
  }

  /** Pauses every lane (storage failures): nothing downloads until the operator resumes the lanes. */
  public synchronized void pauseAllLanes(String why) {
    for (String source : sources) {
      lanes.put(source, lane(source).paused(why));
    }
    store.save(snapshot());
    events.append("lane.settings", clock.instant(), new JsonObject().put("source", "*").put("paused", true)
        .put("reason", why));
  }

  // ---- failures and incidents ---------------------------------------------------------------------------------

  /** Memory-pressure yield (transient, not persisted): while set, no lane claims work and active jobs stop. */
  public void yieldDownloads(String reason) {
    yieldReason = reason;
  }

  /** Why downloads yield right now, or null. */
  public String yieldReason() {
    return yieldReason;
  }

  /** Spends one job-level network retry. */
  public synchronized void countNetworkRetry(String jobId) {
    Job job = jobs.get(jobId);
    if (job != null) {
      jobs.put(jobId, job.withFailureCounters(job.networkRetries() + 1, job.stalls()));
      store.save(snapshot());
    }
  }

  /** A stalled active job is requeued (a system interruption) and its stall count goes up. */
  public synchronized QueueOutcome requeueStalled(String jobId, String why) {
    Job job = jobs.get(jobId);
    if (job == null || job.state() != JobState.ACTIVE) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not active");
    }
    Job counted = job.withFailureCounters(job.networkRetries(), job.stalls() + 1);
    jobs.put(jobId, counted);
    return move(counted, JobState.PENDING, why, false, true);
  }

  /** Records an incident (the last {@link #MAX_INCIDENTS} are kept) and its {@code events.log} line. */
  public synchronized Incident recordIncident(Failure failure, String source, String jobId, FailureAction action) {
    Instant now = clock.instant();
    Incident incident = new Incident("i-" + UUID.randomUUID().toString().substring(0, 8), now, failure.kind(), source,
        jobId, failure.httpStatus(), failure.message(), action.description(), null);
    incidents.addLast(incident);
    while (incidents.size() > MAX_INCIDENTS) {
      incidents.removeFirst();
    }
    store.save(snapshot());
    events.append("incident", now, new JsonObject().put("id", incident.id())
        .put("failure", new JsonObject().put("kind", failure.kind().wire()).put("httpStatus", failure.httpStatus())
            .put("message", failure.message()))
        .put("source", source).put("jobId", jobId).put("action", action.description()));
    listener.incidentRecorded(incident);
    return incident;
  }

  /** The kept incidents, oldest first. */
  public synchronized List<Incident> incidents() {
    return List.copyOf(incidents);
  }

  /** Incidents nobody has cleared yet. */
  public synchronized long openIncidents() {
    return incidents.stream().filter(Incident::open).count();
  }

  private void resolveIncidents(java.util.function.Predicate<Incident> which) {
    Instant now = clock.instant();
    List<Incident> updated = incidents.stream().map(i -> i.open() && which.test(i) ? i.resolved(now) : i).toList();
    incidents.clear();
    incidents.addAll(updated);
  }

  /** Whether {@code owner} still holds the job's lease. */
  public synchronized boolean holds(String jobId, String owner) {
    Job job = jobs.get(jobId);
    return job != null && owner.equals(job.leaseOwner());
  }

  /** Changes a lane's pacing at run time; null keeps the configured default. */
  public synchronized void pacing(String source, Long pageDelayMs, Long chapterDelayMs) {
    updateLane(source, s -> s.withPacing(pageDelayMs, chapterDelayMs),
        new JsonObject().put("pageDelayMs", pageDelayMs).put("chapterDelayMs", chapterDelayMs));
  }

  private void updateLane(String source, UnaryOperator<LaneSettings> change, JsonObject event) {
    lanes.put(source, change.apply(lane(source)));
    store.save(snapshot());
    events.append("lane.settings", clock.instant(), event.put("source", source));
  }

  // ---- startup recovery ---------------------------------------------------------------------------------------

  /** Every chapter whose work had begun, snapshotted now. */
  public synchronized List<OpenChapter> openChapters() {
    List<OpenChapter> open = new ArrayList<>();
    for (Job job : jobs.values()) {
      job.chapters().stream().filter(c -> c.stage().open())
          .forEach(c -> open.add(new OpenChapter(job.id(), job.source(), job.titleId(), c)));
    }
    return open;
  }

  /** The current record of one chapter, re-read before recovery acts on it. */
  public synchronized Optional<ChapterEntry> chapter(String jobId, String chapterId) {
    return job(jobId).flatMap(j -> j.chapters().stream().filter(c -> c.id().equals(chapterId)).findFirst());
  }

  /**
   * At start-up nothing can still be running: every active job (and inspection lease) is given back to
   * {@code pending} as a system interruption.
   *
   * @return the jobs that were active
   */
  public synchronized List<Job> releaseAllAtStartup() {
    List<Job> released = new ArrayList<>();
    for (Job job : List.copyOf(jobs.values())) {
      if (job.state() == JobState.ACTIVE) {
        move(job, JobState.PENDING, "the scraper stopped while it was active", false, true);
        released.add(job);
      } else if (job.leaseOwner() != null) {
        jobs.put(job.id(), job.withLease(null, null));
      }
    }
    return released;
  }

  // ---- internals ----------------------------------------------------------------------------------------------

  private QueueOutcome move(Job job, JobState target, String why, boolean operator, boolean systemInterruption) {
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

  private static JsonObject transition(Job before, Job after, String why) {
    return new JsonObject().put("from", before.state().wire()).put("to", after.state().wire()).put("reason", why);
  }

  private void commit(Job job, String type, JsonObject event) {
    store.save(snapshot());
    events.append(type, clock.instant(), event.put("jobId", job.id()).put("source", job.source())
        .put("titleId", job.titleId()));
    listener.jobChanged(job);
  }

  private QueueFile snapshot() {
    return new QueueFile(QueueStore.SCHEMA, List.copyOf(jobs.values()), Map.copyOf(lanes), List.copyOf(incidents));
  }

  private static List<ChapterEntry> replace(List<ChapterEntry> chapters, ChapterEntry updated) {
    return chapters.stream().map(c -> c.id().equals(updated.id()) ? updated : c).toList();
  }
}
