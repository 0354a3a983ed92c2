package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.library.PublishedChapter;
import io.mangacircus.contracts.rating.AgeRating;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The download queue: the scraper's only copy of jobs, with its lane settings and incidents in their own stores.
 * Every change is checked against the state machine and the stage lattice and committed (a line of
 * {@code queue.json.journal} + {@code events.log}) before the caller learns it happened; listeners hear of it after the
 * lock is released. The state machine is driven here by who asks: a new title ({@link TitleAdditions}), a lane
 * ({@link LaneWork}), the operator ({@link OperatorActions}), a chapter's stage ({@link ChapterStages}), all on one
 * {@link JobTable} under one lock.
 * Thread-safe: lanes (worker threads) and operator requests share it (docs/architecture.md §4).
 */
public final class JobQueue {

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
  private final JobTable jobs;
  private final IncidentStore incidents;
  private final LaneSettingsStore lanes;
  private final ChapterStages chapters;
  private final OperatorActions operator;
  private final LaneWork lane;
  private final TitleAdditions additions;
  private final ContactTimes contacts = new ContactTimes();

  /**
   * Loads the queue from {@code store}.
   *
   * @param sources the configured source names; jobs for other sources are kept but never claimed
   */
  public JobQueue(QueueStore store, EventLog events, InstantSource clock, Set<String> sources, QueueListener listener) {
    this.journal = new QueueJournal(store, events, clock, listener, this);
    this.clock = clock;
    this.sources = Set.copyOf(sources);
    this.jobs = new JobTable(journal, clock);
    QueueFile file = store.load();
    file.jobs().forEach(jobs::add);
    incidents = new IncidentStore(journal, file.incidents());
    lanes = new LaneSettingsStore(journal, this.sources, incidents, file.lanes());
    chapters = new ChapterStages(jobs, journal, clock);
    operator = new OperatorActions(jobs, journal, incidents);
    lane = new LaneWork(jobs, journal, lanes, contacts, clock);
    additions = new TitleAdditions(jobs, this.sources, clock);
    journal.snapshotFrom(() -> new QueueFile(QueueStore.SCHEMA, List.copyOf(jobs.all()), lanes.snapshot(),
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
    return journal.locked(() -> List.copyOf(jobs.all()));
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
    return journal.locked(() -> JobPages.slice(jobs.all(), state, offset, limit));
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
    return SourceCoverage.of(source, jobs(), contacts.last(source));
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
    return journal.locked(() -> additions.add(source, titleId, autoConfirm, language, preferredGroups));
  }

  /**
   * The next piece of work for a source's lane. Every poll first returns jobs whose lease expired to
   * {@code pending} (a system interruption: no attempt consumed) and wakes {@code retry_wait} jobs whose time came.
   */
  public Optional<Claim> claim(String source, String owner, Duration lease) {
    return journal.locked(() -> lane.claim(source, owner, lease));
  }

  /** Records an inspection of a title its source does not rate. */
  public QueueOutcome inspected(String jobId, String owner, String title, List<ChapterEntry> chapters) {
    return inspected(jobId, owner, title, chapters, AgeRating.UNRATED);
  }

  /**
   * Records an inspection: the title, its chapters and the source's age rating of it (which the chapters published from
   * now on carry); the job becomes {@code ready}, or pending when confirmed.
   */
  public QueueOutcome inspected(String jobId, String owner, String title, List<ChapterEntry> chapters,
      AgeRating rating) {
    return journal.locked(() -> lane.inspected(jobId, owner, title, chapters, rating));
  }

  // ---- a lane's work: leases and chapters ----------------------------------------------------------------------

  /** Renews an active job's lease at a checkpoint; false when the lane no longer holds it (then it must stop). */
  public boolean renew(String jobId, String owner, Duration lease) {
    return journal.locked(() -> lane.renew(jobId, owner, lease));
  }

  /** Whether {@code owner} still holds the job's lease. */
  public boolean holds(String jobId, String owner) {
    return journal.locked(() -> lane.holds(jobId, owner));
  }

  /**
   * A chapter's download begins, or resumes with a new page manifest: {@code fetching} with its page count and
   * fingerprint, unless it is already further on (a resumed chapter). One commit; the next is
   * {@link #chapterPublished} after the rename ({@code staged} and {@code publishing} are no longer written, only
   * read from an earlier version's file).
   */
  public QueueOutcome startChapter(String jobId, String chapterId, int pages, String fingerprint) {
    return journal.locked(() -> chapters.start(jobId, chapterId, pages, fingerprint));
  }

  /**
   * A chapter is in the library: {@code published}, with what the library holds for it; listeners are told (the event
   * {@code mc.library.published} carries it). One commit.
   */
  public QueueOutcome chapterPublished(String jobId, String chapterId, int pages, PublishedChapter where) {
    return journal.locked(() -> chapters.published(jobId, chapterId, pages, where));
  }

  /** A chapter startup recovery found in the library with its fingerprint, to be recorded as published. */
  public record Publication(String jobId, String chapterId, int pages, PublishedChapter where) {
  }

  /**
   * Records many chapters as published in one commit ({@code queue.json} saved once, the event lines flushed once),
   * each as {@link #chapterPublished} would; listeners are told of each.
   */
  public List<QueueOutcome> chaptersPublished(List<Publication> publications) {
    return journal.batch(() -> publications.stream().map(p -> chapters.published(p.jobId(), p.chapterId(),
        p.pages(), p.where())).toList());
  }

  /** A chapter cannot be downloaded or published ({@code reason} starts with its code); the job goes on. */
  public QueueOutcome chapterFailed(String jobId, String chapterId, int pages, String fingerprint, String reason) {
    return journal.locked(() -> chapters.stage(jobId, chapterId, ChapterStage.FAILED, pages, fingerprint, reason,
        null));
  }

  /** Records a chapter's stage, forward only ({@link ChapterStages#stage}). Under the lock. */
  QueueOutcome stage(String jobId, String chapterId, ChapterStage next, int pages, String fingerprint, String reason,
      PublishedChapter where) {
    return chapters.stage(jobId, chapterId, next, pages, fingerprint, reason, where);
  }

  /** Marks an active job done once every chapter is settled. */
  public QueueOutcome finish(String jobId, String owner) {
    return journal.locked(() -> lane.finish(jobId, owner));
  }

  /** Gives an active job back without consuming an attempt (shutdown, lane pause, a lane crash). */
  public QueueOutcome release(String jobId, String owner, String why) {
    return journal.locked(() -> lane.release(jobId, owner, why));
  }

  /**
   * Gives back the lease of a job under inspection (still {@code pending}) at once, e.g. after a 429: a system
   * interruption, no attempt used; the job is claimed again when its lane may send.
   */
  public QueueOutcome releaseInspection(String jobId, String owner, String why) {
    return journal.locked(() -> lane.releaseInspection(jobId, owner, why));
  }

  // ---- failures -----------------------------------------------------------------------------------------------

  /**
   * Moves a job a lane worked on to a failure state. A counted failure that reaches
   * {@link io.mangacircus.scraper.failure.RetryPolicy#MAX_ATTEMPTS} quarantines.
   *
   * @param retryAt for {@code retry_wait}: when it becomes pending again
   */
  public QueueOutcome setback(String jobId, JobState target, String why, boolean countsAsAttempt, Instant retryAt) {
    return journal.locked(() -> lane.setback(jobId, target, why, countsAsAttempt, retryAt));
  }

  /** Spends one job-level network retry. */
  public void countNetworkRetry(String jobId) {
    journal.locked(() -> lane.countNetworkRetry(jobId));
  }

  /** A stalled active job is requeued (a system interruption) and its stall count goes up. */
  public QueueOutcome requeueStalled(String jobId, String why) {
    return journal.locked(() -> lane.requeueStalled(jobId, why));
  }

  // ---- operator requests --------------------------------------------------------------------------------------

  /** The operator allows a {@code ready} job to download. */
  public QueueOutcome confirm(String jobId) {
    return journal.locked(() -> operator.confirm(jobId));
  }

  /** The operator pauses a job; an active one stops at its next checkpoint. */
  public QueueOutcome pause(String jobId) {
    return journal.locked(() -> operator.pause(jobId));
  }

  /** The operator resumes a paused job; its incidents are cleared. */
  public QueueOutcome resume(String jobId) {
    return journal.locked(() -> operator.resume(jobId));
  }

  /** The operator retries a paused, waiting, unavailable or quarantined job; staged pages are kept. */
  public QueueOutcome retry(String jobId) {
    return journal.locked(() -> operator.retry(jobId));
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
    return journal.locked(() -> operator.dismiss(jobId));
  }

  /**
   * The operator deletes a finished ({@code done}) job from the queue; its published chapters stay in the library. Any
   * other state is refused (a failed job is dismissed instead).
   */
  public QueueOutcome delete(String jobId) {
    return journal.locked(() -> operator.delete(jobId));
  }

  /** The staging fingerprints of a job's chapters that were started and not published (where their pages wait). */
  public static List<String> unpublishedStaging(Job job) {
    return job.chapters().stream().filter(c -> c.fingerprint() != null && c.stage() != ChapterStage.PUBLISHED)
        .map(ChapterEntry::fingerprint).distinct().toList();
  }

  // ---- startup recovery ---------------------------------------------------------------------------------------

  /** Every chapter whose work had begun, snapshotted now. */
  public List<OpenChapter> openChapters() {
    return journal.locked(() -> {
      List<OpenChapter> open = new ArrayList<>();
      for (Job job : jobs.all()) {
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
    return journal.batch(lane::releaseAll);
  }
}
