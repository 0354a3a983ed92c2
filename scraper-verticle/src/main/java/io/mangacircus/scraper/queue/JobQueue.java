package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.library.PublishedChapter;
import io.vertx.core.json.JsonArray;
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
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The download queue: the scraper's only copy of jobs, with its lane settings and incidents in their own stores.
 * Every change is checked against the state machine and the stage lattice and committed (a line of
 * {@code queue.json.journal} + {@code events.log}) before the caller learns it happened; listeners hear of it after the lock is released.
 * Thread-safe: lanes (worker threads) and operator requests share it (docs/architecture.md §4).
 */
public final class JobQueue {

  private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

  /** Failed attempts after which a job is quarantined instead of retried. */
  public static final int MAX_ATTEMPTS = 5;

  /** What a lane is to do with a claimed job. */
  public enum Work { INSPECT, DOWNLOAD }

  /** A lane's claim on a job. */
  public record Claim(Job job, Work work) {
  }

  /** A chapter whose work had begun when the snapshot was taken (for startup recovery). */
  public record OpenChapter(String jobId, String source, String titleId, ChapterEntry chapter) {
  }

  /**
   * What adding a title did.
   *
   * @param outcome the job (new or the outstanding one), or why nothing was added
   * @param created whether a new job was created
   * @param supersededJobId the finished job of the same title the new job replaced, else null
   */
  public record Addition(QueueOutcome outcome, boolean created, String supersededJobId) {
  }

  private final QueueJournal journal;
  private final InstantSource clock;
  private final Set<String> sources;
  private final LinkedHashMap<String, Job> jobs = new LinkedHashMap<>();
  /**
   * The ids of each title's jobs ({@link #titleKey}), in the queue's order: an add looks its title up here instead of
   * walking every job (a walk over 10,000 jobs touched each one's strings: most of an add's time). A job's source and
   * title never change, so only adding and removing a job change this.
   */
  private final Map<String, List<String>> idsByTitle = new HashMap<>();
  private final IncidentStore incidents;
  private final LaneSettingsStore lanes;
  private final Map<String, Instant> lastContact = new ConcurrentHashMap<>();

  /**
   * Loads the queue from {@code store}.
   *
   * @param sources the configured source names; jobs for other sources are kept but never claimed
   */
  public JobQueue(QueueStore store, EventLog events, InstantSource clock, Set<String> sources, QueueListener listener) {
    this.journal = new QueueJournal(store, events, clock, listener, this);
    this.clock = clock;
    this.sources = Set.copyOf(sources);
    QueueFile file = store.load();
    file.jobs().forEach(job -> {
      jobs.put(job.id(), job);
      indexTitle(job);
    });
    incidents = new IncidentStore(journal, file.incidents());
    lanes = new LaneSettingsStore(journal, this.sources, incidents, file.lanes());
    journal.snapshotFrom(() -> new QueueFile(QueueStore.SCHEMA, List.copyOf(jobs.values()), lanes.snapshot(),
        incidents.snapshot()));
  }

  /**
   * A clean stop: the change journal is folded into {@code queue.json} and closed. Nothing may change the queue after.
   */
  public void close() {
    journal.locked(journal::close);
  }

  /** Folds the change journal into {@code queue.json} now (a snapshot, as the journal's threshold does). */
  public void compact() {
    journal.locked(journal::compact);
  }

  /** The lanes' settings and the memory yield. */
  public LaneSettingsStore lanes() {
    return lanes;
  }

  /** The incident history. */
  public IncidentStore incidents() {
    return incidents;
  }

  /** The configured sources. */
  public Set<String> sources() {
    return sources;
  }

  /** Every job, in the order they were added. */
  public List<Job> jobs() {
    return journal.locked(() -> List.copyOf(jobs.values()));
  }

  /**
   * One slice of the jobs, for the operator's paged list.
   *
   * @param jobs the jobs on the slice, in the order they were added
   * @param total jobs in the state asked for (every job when none was)
   * @param counts jobs per state in the whole queue
   */
  public record JobPage(List<Job> jobs, int total, Map<JobState, Integer> counts) {
  }

  /**
   * The jobs in {@code state} (every state when null) from {@code offset}, at most {@code limit} of them, with the
   * totals: one walk over the queue under the lock, copying only the slice (a page of a long queue never copies or
   * serializes the rest).
   */
  public JobPage page(JobState state, int offset, int limit) {
    if (offset < 0 || limit < 0) {
      throw new IllegalArgumentException("offset and limit must not be negative: " + offset + ", " + limit);
    }
    return journal.locked(() -> {
      List<Job> slice = new ArrayList<>(Math.min(limit, 256));
      Map<JobState, Integer> counts = new java.util.EnumMap<>(JobState.class);
      int matching = 0;
      for (Job job : jobs.values()) {
        counts.merge(job.state(), 1, Integer::sum);
        if (state != null && job.state() != state) {
          continue;
        }
        if (matching >= offset && matching - offset < limit) {
          slice.add(job);
        }
        matching++;
      }
      return new JobPage(slice, matching, counts);
    });
  }

  public Optional<Job> job(String id) {
    return journal.locked(() -> Optional.ofNullable(jobs.get(id)));
  }

  /** The current record of one chapter. */
  public Optional<ChapterEntry> chapter(String jobId, String chapterId) {
    return job(jobId).flatMap(j -> j.chapters().stream().filter(c -> c.id().equals(chapterId)).findFirst());
  }

  /** A source's coverage: titles, chapters found and published, last successful contact since this start. */
  public SourceCoverage coverage(String source) {
    return SourceCoverage.of(source, jobs(), lastContact.get(source));
  }

  // ---- adding and claiming ------------------------------------------------------------------------------------

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
  public Addition addTitle(String source, String titleId, boolean autoConfirm) {
    return addTitle(source, titleId, autoConfirm, "en", List.of());
  }

  /**
   * As above, for chapters in {@code language}, one per number by {@code preferredGroups}. An outstanding job of the
   * title is returned as it is (its language and groups unchanged).
   */
  public Addition addTitle(String source, String titleId, boolean autoConfirm, String language,
      List<String> preferredGroups) {
    return journal.locked(() -> {
      if (!sources.contains(source)) {
        return new Addition(QueueOutcome.refused(null, QueueOutcome.Refusal.UNKNOWN_SOURCE,
            "unknown source '" + source + "' (configured: " + String.join(", ", sources) + ")"), false, null);
      }
      List<Job> ofTitle = idsByTitle.getOrDefault(titleKey(source, titleId), List.of()).stream().map(jobs::get)
          .toList();
      Optional<Job> existing = ofTitle.stream().filter(j -> j.state().outstanding()).findFirst();
      if (existing.isPresent()) {
        return new Addition(QueueOutcome.done(existing.get()), false, null);
      }
      List<Job> finished = ofTitle.stream().filter(j -> j.state() == JobState.DONE).toList();
      finished.forEach(j -> {
        jobs.remove(j.id());
        unindexTitle(j);
      });
      Instant now = clock.instant();
      Job job = new Job("j-" + UUID.randomUUID().toString().substring(0, 8), source, titleId, titleId,
          JobState.PENDING, false, autoConfirm, 0, 0, now, now, null, null, null, null, List.of(), 0, 0, language,
          preferredGroups);
      jobs.put(job.id(), job);
      indexTitle(job);
      commit(job, "job.added", new JsonObject().put("autoConfirm", autoConfirm).put("language", job.language())
          .put("preferredGroups", new JsonArray(job.preferredGroups()))
          .put("supersedes", new JsonArray(finished.stream().map(Job::id).toList())));
      String superseded = finished.isEmpty() ? null : finished.get(finished.size() - 1).id();
      if (superseded != null) {
        LOG.info("[QUEUE] job {} for {}/{} supersedes finished job {}", job.id(), source, titleId, superseded);
      }
      return new Addition(QueueOutcome.done(job), true, superseded);
    });
  }

  /**
   * The next piece of work for a source's lane. Every poll first returns jobs whose lease expired to
   * {@code pending} (a system interruption: no attempt consumed) and wakes {@code retry_wait} jobs whose time came.
   */
  public Optional<Claim> claim(String source, String owner, Duration lease) {
    return journal.locked(() -> {
      Instant now = clock.instant();
      reclaimExpired(now);
      if (!lanes.mayClaim(source, now)) {
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
    });
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
  public QueueOutcome inspected(String jobId, String owner, String title, List<ChapterEntry> chapters) {
    return journal.locked(() -> {
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
      Job next = job.confirmed() ? inspected.with(JobState.PENDING, now, null)
          : inspected.with(JobState.READY, now, null);
      jobs.put(jobId, next);
      commit(next, "job.inspected", transition(job, next, merged.size() + " chapters"));
      return QueueOutcome.done(next);
    });
  }

  // ---- a lane's work: leases and chapters ----------------------------------------------------------------------

  /** Renews an active job's lease at a checkpoint; false when the lane no longer holds it (then it must stop). */
  public boolean renew(String jobId, String owner, Duration lease) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
        return false;
      }
      Instant now = clock.instant();
      jobs.put(jobId, job.withLease(now.plus(lease), owner));
      lastContact.put(job.source(), now);
      return true;
    });
  }

  /** Whether {@code owner} still holds the job's lease. */
  public boolean holds(String jobId, String owner) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      return job != null && owner.equals(job.leaseOwner());
    });
  }

  /**
   * A chapter's download begins, or resumes with a new page manifest: {@code fetching} with its page count and
   * fingerprint, unless it is already further on (a resumed chapter). One commit; the next is
   * {@link #chapterPublished} after the rename ({@code staged} and {@code publishing} are no longer written, only
   * read from an earlier version's file).
   */
  public QueueOutcome startChapter(String jobId, String chapterId, int pages, String fingerprint) {
    return journal.locked(() -> advance(jobId, chapterId, ChapterStage.FETCHING, pages, fingerprint));
  }

  /**
   * A chapter is in the library: {@code published}, with what the library holds for it; listeners are told (the event
   * {@code mc.library.published} carries it). One commit.
   */
  public QueueOutcome chapterPublished(String jobId, String chapterId, int pages, PublishedChapter where) {
    return journal.locked(() -> stage(jobId, chapterId, ChapterStage.PUBLISHED, pages,
        where.manifest().fingerprint(), null, where));
  }

  /** A chapter startup recovery found in the library with its fingerprint, to be recorded as published. */
  public record Publication(String jobId, String chapterId, int pages, PublishedChapter where) {
  }

  /**
   * Records many chapters as published in one commit ({@code queue.json} saved once, the event lines flushed once),
   * each as {@link #chapterPublished} would; listeners are told of each.
   */
  public List<QueueOutcome> chaptersPublished(List<Publication> publications) {
    return journal.batch(() -> publications.stream().map(p -> stage(p.jobId(), p.chapterId(), ChapterStage.PUBLISHED,
        p.pages(), p.where().manifest().fingerprint(), null, p.where())).toList());
  }

  /** A chapter cannot be downloaded or published ({@code reason} starts with its code); the job goes on. */
  public QueueOutcome chapterFailed(String jobId, String chapterId, int pages, String fingerprint, String reason) {
    return journal.locked(() -> stage(jobId, chapterId, ChapterStage.FAILED, pages, fingerprint, reason, null));
  }

  /** Records a stage only when it is ahead of the recorded one, or the same with a new manifest. Under the lock. */
  private QueueOutcome advance(String jobId, String chapterId, ChapterStage next, int pages, String fingerprint) {
    Job job = jobs.get(jobId);
    ChapterEntry recorded = job == null ? null : find(job, chapterId);
    if (recorded == null) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.NOT_FOUND, "no chapter " + chapterId + " in " + jobId);
    }
    boolean newManifest = next == recorded.stage() && !java.util.Objects.equals(fingerprint, recorded.fingerprint());
    if (next.rank() > recorded.stage().rank() || newManifest) {
      return stage(jobId, chapterId, next, pages, fingerprint, null, null);
    }
    return QueueOutcome.done(job);
  }

  /**
   * Records a chapter's stage; a write that would move it backwards is refused and logged. Startup recovery and the
   * chapter operations above use it. Under the lock.
   */
  QueueOutcome stage(String jobId, String chapterId, ChapterStage next, int pages, String fingerprint, String reason,
      PublishedChapter where) {
    Job job = jobs.get(jobId);
    ChapterEntry current = job == null ? null : find(job, chapterId);
    if (current == null) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.NOT_FOUND, "no chapter " + chapterId + " in " + jobId);
    }
    if (!StageLattice.allows(current.stage(), next)) {
      LOG.warn("[QUEUE] refused to move chapter {} of job {} back from {} to {}", chapterId, jobId,
          current.stage().wire(), next.wire());
      journal.append("chapter.stage.refused", new JsonObject().put("jobId", jobId).put("chapterId", chapterId)
          .put("from", current.stage().wire()).put("to", next.wire()));
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "chapter " + chapterId + " cannot move back from " + current.stage().wire() + " to " + next.wire());
    }
    ChapterEntry updated = current.withStage(next, pages, fingerprint, reason);
    if (updated.equals(current)) {
      return QueueOutcome.done(job);
    }
    Job changed = job.withChapters(replace(job.chapters(), updated), clock.instant());
    jobs.put(jobId, changed);
    commit(changed, "chapter.stage", new JsonObject().put("chapterId", chapterId).put("number", current.number())
        .put("from", current.stage().wire()).put("to", next.wire()).put("pages", pages).put("reason", reason));
    if (next == ChapterStage.PUBLISHED && where != null) {
      journal.tell(listener -> listener.chapterPublished(changed, updated, where));
    }
    return QueueOutcome.done(changed);
  }

  /** Marks an active job done once every chapter is settled. */
  public QueueOutcome finish(String jobId, String owner) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
        return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "lease lost");
      }
      if (!job.allChaptersSettled()) {
        return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "chapters still open");
      }
      return move(job, JobState.DONE, job.publishedChapters() + " chapters published", false, false);
    });
  }

  /** Gives an active job back without consuming an attempt (shutdown, lane pause, a lane crash). */
  public QueueOutcome release(String jobId, String owner, String why) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job == null || job.state() != JobState.ACTIVE || !owner.equals(job.leaseOwner())) {
        return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not held by " + owner);
      }
      return move(job, JobState.PENDING, why, false, true);
    });
  }

  /**
   * Gives back the lease of a job under inspection (still {@code pending}) at once, e.g. after a 429: a system
   * interruption, no attempt used; the job is claimed again when its lane may send.
   */
  public QueueOutcome releaseInspection(String jobId, String owner, String why) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job == null || job.state() != JobState.PENDING || !owner.equals(job.leaseOwner())) {
        return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not inspected by " + owner);
      }
      Job back = job.withLease(null, null).withCounters(job.attempts(), job.interruptions() + 1);
      jobs.put(jobId, back);
      commit(back, "job.state", transition(job, back, why));
      return QueueOutcome.done(back);
    });
  }

  // ---- failures -----------------------------------------------------------------------------------------------

  /**
   * Moves a job a lane worked on to a failure state. A counted failure that reaches {@link #MAX_ATTEMPTS} quarantines.
   *
   * @param retryAt for {@code retry_wait}: when it becomes pending again
   */
  public QueueOutcome setback(String jobId, JobState target, String why, boolean countsAsAttempt, Instant retryAt) {
    return journal.locked(() -> {
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
    });
  }

  /** Spends one job-level network retry. */
  public void countNetworkRetry(String jobId) {
    journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job != null) {
        jobs.put(jobId, job.withFailureCounters(job.networkRetries() + 1, job.stalls()));
        journal.save();
      }
    });
  }

  /** A stalled active job is requeued (a system interruption) and its stall count goes up. */
  public QueueOutcome requeueStalled(String jobId, String why) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job == null || job.state() != JobState.ACTIVE) {
        return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION, "not active");
      }
      Job counted = job.withFailureCounters(job.networkRetries(), job.stalls() + 1);
      jobs.put(jobId, counted);
      return move(counted, JobState.PENDING, why, false, true);
    });
  }

  // ---- operator requests --------------------------------------------------------------------------------------

  /** The operator allows a {@code ready} job to download. */
  public QueueOutcome confirm(String jobId) {
    return journal.locked(() -> {
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
    });
  }

  /** The operator pauses a job; an active one stops at its next checkpoint. */
  public QueueOutcome pause(String jobId) {
    return journal.locked(() -> operatorMove(jobId, JobState.PAUSED, "paused by the operator"));
  }

  /** The operator resumes a paused job; its incidents are cleared. */
  public QueueOutcome resume(String jobId) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job != null && job.state() != JobState.PAUSED) {
        return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
            "only a paused job can be resumed; " + jobId + " is " + job.state().wire());
      }
      incidents.resolve(i -> jobId.equals(i.jobId()));
      return operatorMove(jobId, JobState.PENDING, "resumed by the operator");
    });
  }

  /** The operator retries a paused, waiting, unavailable or quarantined job; staged pages are kept. */
  public QueueOutcome retry(String jobId) {
    return journal.locked(() -> {
      Job job = jobs.get(jobId);
      if (job != null && (job.state() == JobState.ACTIVE || job.state() == JobState.DONE
          || job.state() == JobState.PENDING || job.state() == JobState.READY)) {
        return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
            "nothing to retry: " + jobId + " is " + job.state().wire());
      }
      if (job != null) {
        jobs.put(jobId, job.withFailureCounters(0, 0));
        incidents.resolve(i -> jobId.equals(i.jobId()));
      }
      return operatorMove(jobId, JobState.PENDING, "retried by the operator");
    });
  }

  /** The states a job can be dismissed from: the failed ones the health page lists. */
  public static final Set<JobState> DISMISSABLE = Set.of(JobState.PAUSED, JobState.RETRY_WAIT, JobState.UNAVAILABLE,
      JobState.QUARANTINED);

  /**
   * The operator dismisses a failed job (paused, waiting to retry, unavailable or quarantined): it leaves the queue and
   * its incidents are resolved. Its published chapters stay in the library; the caller removes the staging folders of
   * the chapters it had not published ({@link #unpublishedStaging}). Any other state is refused.
   */
  public QueueOutcome dismiss(String jobId) {
    return journal.locked(() -> remove(jobId, DISMISSABLE, "job.dismissed",
        "only a failed job (paused, retry_wait, unavailable or quarantined) can be dismissed"));
  }

  /**
   * The operator deletes a finished ({@code done}) job from the queue; its published chapters stay in the library. Any
   * other state is refused (a failed job is dismissed instead).
   */
  public QueueOutcome delete(String jobId) {
    return journal.locked(() -> remove(jobId, Set.of(JobState.DONE), "job.deleted",
        "only a finished (done) job can be deleted"));
  }

  /** The staging fingerprints of a job's chapters that were started and not published (where their pages wait). */
  public static List<String> unpublishedStaging(Job job) {
    return job.chapters().stream().filter(c -> c.fingerprint() != null && c.stage() != ChapterStage.PUBLISHED)
        .map(ChapterEntry::fingerprint).distinct().toList();
  }

  private static String titleKey(String source, String titleId) {
    return source + '\u0000' + titleId;
  }

  private void indexTitle(Job job) {
    idsByTitle.computeIfAbsent(titleKey(job.source(), job.titleId()), key -> new ArrayList<>(1)).add(job.id());
  }

  private void unindexTitle(Job job) {
    String key = titleKey(job.source(), job.titleId());
    List<String> ids = idsByTitle.get(key);
    if (ids != null && ids.remove(job.id()) && ids.isEmpty()) {
      idsByTitle.remove(key);
    }
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
    jobs.remove(jobId);
    unindexTitle(job);
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
    return move(job, target, why, false, false);
  }

  // ---- startup recovery ---------------------------------------------------------------------------------------

  /** Every chapter whose work had begun, snapshotted now. */
  public List<OpenChapter> openChapters() {
    return journal.locked(() -> {
      List<OpenChapter> open = new ArrayList<>();
      for (Job job : jobs.values()) {
        job.chapters().stream().filter(c -> c.stage().open())
            .forEach(c -> open.add(new OpenChapter(job.id(), job.source(), job.titleId(), c)));
      }
      return open;
    });
  }

  /**
   * At start-up nothing can still be running: every active job (and inspection lease) is given back to
   * {@code pending} as a system interruption.
   *
   * @return the jobs that were active
   */
  public List<Job> releaseAllAtStartup() {
    // One save for every job given back: a long queue is not rewritten once per active job.
    return journal.batch(() -> {
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
    });
  }

  // ---- internals (under the lock) -----------------------------------------------------------------------------

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
    journal.commit(type, event.put("jobId", job.id()).put("source", job.source()).put("titleId", job.titleId()));
    journal.tell(listener -> listener.jobChanged(job));
  }

  private static ChapterEntry find(Job job, String chapterId) {
    return job.chapters().stream().filter(c -> c.id().equals(chapterId)).findFirst().orElse(null);
  }

  private static List<ChapterEntry> replace(List<ChapterEntry> chapters, ChapterEntry updated) {
    return chapters.stream().map(c -> c.id().equals(updated.id()) ? updated : c).toList();
  }
}
