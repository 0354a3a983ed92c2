package io.mangacircus.scraper.lane;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureClassifier;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.publish.ChapterKey;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.Checkpoint;
import io.mangacircus.scraper.publish.Fingerprints;
import io.mangacircus.scraper.publish.LibraryLayout;
import io.mangacircus.scraper.validate.PageValidator;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.ChapterStage;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.LaneSettings;
import io.mangacircus.scraper.queue.QueueOutcome;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.Delays;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one lane's claimed work, one job at a time: inspection (metadata only) or the download of every chapter,
 * page by page, with a checkpoint after every page, then one-rename publication. Runs on the lane's worker context,
 * so file writes and fsyncs happen inline. Stops at the next checkpoint when asked or when the lease is lost.
 */
public final class JobDownloader {

  private static final Logger LOG = LoggerFactory.getLogger(JobDownloader.class);

  /** A hold up to this long is waited out with the job active; a longer one gives the job back to the queue. */
  static final Duration LONGEST_WAIT_IN_PLACE = Duration.ofMinutes(2);
  private static final long WAIT_STEP_MS = 1_000;
  /** The name of the page decode pool that every lane of the scraper shares. */
  static final String DECODE_POOL = "mc-page-decode";
  /** Pages decoded at once: one per core. */
  static final int DECODE_THREADS = Runtime.getRuntime().availableProcessors();
  /** Pages a lane has in flight (fetched, not yet stored): two per decode thread, so no thread waits for the lane. */
  static final int PAGES_IN_FLIGHT = 2 * DECODE_THREADS;

  /** How a chapter's work ended. */
  private enum Step { CONTINUE, STOP }

  private final Vertx vertx;
  private final Source source;
  private final SourceConfig sourceConfig;
  private final JobQueue queue;
  private final LibraryLayout library;
  private final ChapterPublisher publisher;
  private final ProgressBoard progress;
  private final InstantSource clock;
  private final Duration lease;
  private final String owner;
  private final BooleanSupplier stopRequested;
  private final FailureResponder failures;
  /** The job as the queue last answered this lane: progress reports need no re-reading of the queue. */
  private Job latest;
  /** The page decode pool, for a source set to {@code "validation": "decode"}; null until first used. */
  private WorkerExecutor decoder;

  public JobDownloader(Vertx vertx, Source source, SourceConfig sourceConfig, JobQueue queue, LibraryLayout library,
      ProgressBoard progress, InstantSource clock, Duration lease, String owner, BooleanSupplier stopRequested,
      FailureResponder failures) {
    this.failures = failures;
    this.vertx = vertx;
    this.source = source;
    this.sourceConfig = sourceConfig;
    this.queue = queue;
    this.library = library;
    this.publisher = new ChapterPublisher(library, clock);
    this.progress = progress;
    this.clock = clock;
    this.lease = lease;
    this.owner = owner;
    this.stopRequested = stopRequested;
  }

  // ---- inspection ---------------------------------------------------------------------------------------------

  /**
   * Reads a title's metadata (never images) and records its chapters in the job's language (chapters a source lists
   * without a language count as English), one per number by the job's group preference where the source has groups.
   */
  public Future<Void> inspect(Job job) {
    String language = job.language();
    String name = languageName(language);
    return source.title(job.titleId(), Duration.ofMillis(pacing().pageDelayMs()),
        new Source.Wanted(language, job.preferredGroups())).map(outcome -> {
      if (outcome instanceof FetchOutcome.Ok<?>) {
        var info = outcome.value();
        List<ChapterEntry> wanted = info.chapters().stream()
            .filter(c -> languageOf(c).equalsIgnoreCase(language))
            .map(c -> entry(c, clock.instant())).toList();
        if (wanted.isEmpty()) {
          List<String> others = info.languages().stream().filter(l -> !l.equalsIgnoreCase(language)).toList();
          boolean saysNone = !info.languages().isEmpty() && others.size() == info.languages().size();
          List<String> listed = info.chapters().stream().map(JobDownloader::languageOf).distinct().toList();
          failures.respond(job, owner, new Failure(FailureKind.UNAVAILABLE, null, saysNone
              ? "no chapters in " + name + " (available: " + String.join(", ", others) + ")"
              : info.chapters().isEmpty() ? "no " + name + " chapters to download"
              : "no " + name + " chapters (" + info.chapters().size() + " chapters in other languages: "
                  + String.join(", ", listed) + ")"));
        } else {
          queue.inspected(job.id(), owner, info.title(), wanted);
          long waiting = wanted.stream().filter(c -> c.stage().awaitsSource()).count();
          LOG.info("[LANE {}] inspected {} ({}): {} {} chapters{}", source.name(), job.id(), info.title(),
              wanted.size(), name, waiting == 0 ? "" : " (" + waiting + " scheduled or external, not downloaded)");
        }
      } else {
        failed(job, outcome, "inspection");
      }
      return null;
    });
  }

  /** A chapter's language; one a source lists without a language is English. */
  static String languageOf(ChapterInfo chapter) {
    return chapter.language() == null || chapter.language().isEmpty() ? "en" : chapter.language();
  }

  /** {@code English} for {@code en}, else the language's English name with its code: {@code French (fr)}. */
  static String languageName(String code) {
    if ("en".equalsIgnoreCase(code)) {
      return "English";
    }
    String display = java.util.Locale.forLanguageTag(code).getDisplayName(java.util.Locale.ENGLISH);
    return display.isEmpty() || display.equalsIgnoreCase(code) ? code : display + " (" + code + ")";
  }

  /** A listed chapter as the queue records it: planned, or scheduled / external when there is nothing to download. */
  static ChapterEntry entry(ChapterInfo chapter, java.time.Instant now) {
    boolean external = chapter.externalUrl() != null && !chapter.externalUrl().isBlank();
    return chapter.notDownloadable(now).map(why -> ChapterEntry.awaitingSource(chapter.id(), chapter.number(),
        chapter.title(), external ? ChapterStage.EXTERNAL : ChapterStage.SCHEDULED, why))
        .orElseGet(() -> ChapterEntry.planned(chapter.id(), chapter.number(), chapter.title()));
  }

  // ---- download -----------------------------------------------------------------------------------------------

  /**
   * Downloads every unsettled chapter of an active job, in order, then marks the job done; scheduled and external
   * chapters are never asked for.
   */
  public Future<Void> download(Job job) {
    latest = job;
    return chapters(job, 0).compose(step -> {
      if (step == Step.CONTINUE) {
        QueueOutcome finished = queue.finish(job.id(), owner);
        if (finished.accepted()) {
          report(finished.job(), null, 0, 0);
          LOG.info("[LANE {}] job {} ({}) done: {} chapters published", source.name(), job.id(), job.title(),
              finished.job().publishedChapters());
        }
      }
      return Future.<Void>succeededFuture();
    });
  }

  private Future<Step> chapters(Job job, int index) {
    if (index >= job.chapters().size()) {
      return Future.succeededFuture(Step.CONTINUE);
    }
    if (stopNow(job)) {
      return Future.succeededFuture(Step.STOP);
    }
    ChapterEntry chapter = queue.chapter(job.id(), job.chapters().get(index).id()).orElseThrow();
    if (chapter.stage().terminal() || chapter.stage().awaitsSource()) {
      return chapters(job, index + 1);
    }
    return chapter(job, chapter).compose(step -> {
      if (step == Step.STOP) {
        return Future.succeededFuture(Step.STOP);
      }
      boolean more = index + 1 < job.chapters().size();
      return (more ? delay(pacing().chapterDelayMs()) : Future.<Void>succeededFuture())
          .compose(v -> chapters(job, index + 1));
    });
  }

  private Future<Step> chapter(Job job, ChapterEntry chapter) {
    ChapterInfo info = new ChapterInfo(chapter.id(), chapter.number(), chapter.title(), job.language());
    // The claimed job's title and ids do not change while the lane holds it.
    ChapterKey published = ChapterKey.of(job, chapter);
    // Only a readable chapter.json naming this source, title and chapter counts: an unreadable library is the
    // storage failure the next write reports, and a folder holding something else is never taken over.
    ChapterPublisher.Occupant occupant = publisher.occupant(published);
    if (occupant.kind() == ChapterPublisher.Occupant.Kind.THIS_CHAPTER && occupant.fingerprint() != null) {
      // Published chapters are never replaced: a title added again (or by discovery) costs no request for them.
      LOG.info("[LANE {}] chapter {} of {} is already in the library; not fetching it again", source.name(),
          chapter.number(), job.titleId());
      recorded(queue.chapterPublished(job.id(), chapter.id(), chapter.pages(), publisher.published(occupant).chapter()));
      return Future.succeededFuture(Step.CONTINUE);
    }
    if (occupant.kind() == ChapterPublisher.Occupant.Kind.OTHER) {
      folderTaken(job, chapter, chapter.pages(), chapter.fingerprint(), "library/"
          + library.root().relativize(occupant.folder()) + " holds "
          + occupant.holder() + "; nothing was downloaded");
      return Future.succeededFuture(Step.CONTINUE);
    }
    return waitingOutHolds(job, () -> source.pages(job.titleId(), info)).compose(outcome -> {
      if (outcome instanceof FetchOutcome.NotFound<?>) {
        recorded(queue.chapterFailed(job.id(), chapter.id(), chapter.pages(), chapter.fingerprint(),
            "chapter_gone: " + outcome.describe()));
        return Future.succeededFuture(Step.CONTINUE);
      }
      if (!outcome.ok()) {
        failed(job, outcome, "chapter " + chapter.number());
        return Future.succeededFuture(Step.STOP);
      }
      List<PageRef> pages = outcome.value();
      ChapterKey key = published;
      List<String> manifest = pages.stream().map(PageRef::key).toList();
      String fingerprint = Fingerprints.chapter(key.source(), key.titleId(), key.chapterId(), manifest);
      ChapterPublisher.Occupant there = publisher.occupant(key);
      if (there.kind() == ChapterPublisher.Occupant.Kind.THIS_CHAPTER && fingerprint.equals(there.fingerprint())) {
        LOG.info("[LANE {}] chapter {} of {} is already in the library with this fingerprint; not downloading it again",
            source.name(), chapter.number(), job.titleId());
        recorded(queue.chapterPublished(job.id(), chapter.id(), pages.size(), publisher.published(there).chapter()));
        return Future.succeededFuture(Step.CONTINUE);
      }
      StagingFolder staging;
      try {
        staging = StagingFolder.open(library, key, manifest, clock);
      } catch (CorruptStateFileException e) {
        failures.respond(job, owner, new Failure(FailureKind.UNKNOWN, null, "staging unusable: " + e.getMessage()));
        return Future.succeededFuture(Step.STOP);
      } catch (UncheckedIOException e) {
        storageFailed(job, e.getCause());
        return Future.succeededFuture(Step.STOP);
      }
      recorded(queue.startChapter(job.id(), chapter.id(), pages.size(), fingerprint));
      report(latest, chapter, staging.validatedPages(), pages.size());
      // The checkpoint log stays open for the chapter: closed once it is published, stopped or failed.
      return pages(job, chapter, staging, pages, 0).map(step -> step == Step.CONTINUE ? publish(job, chapter, staging)
          : Step.STOP).onComplete(done -> staging.close());
    });
  }

  private Future<Step> pages(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages, int index) {
    if (sourceConfig.validationMode() == PageValidator.Mode.DECODE) {
      return decodedPages(job, chapter, staging, pages, index, new PagesInFlight(PAGES_IN_FLIGHT));
    }
    if (index >= pages.size()) {
      return Future.succeededFuture(Step.CONTINUE);
    }
    PageRef page = pages.get(index);
    if (staging.has(page.index())) {
      return pages(job, chapter, staging, pages, index + 1);
    }
    if (stopNow(job)) {
      return Future.succeededFuture(Step.STOP);
    }
    return waitingOutHolds(job, () -> source.page(page)).compose(outcome -> {
      if (!outcome.ok()) {
        failed(job, outcome, "chapter " + chapter.number() + " page " + page.index());
        return Future.succeededFuture(Step.STOP);
      }
      PageBytes body = outcome.value();
      PageValidator.Verdict verdict = PageValidator.check(body.contentType(), body.bytes());
      if (!verdict.valid()) {
        refused(job, chapter, page, verdict);
        return Future.succeededFuture(Step.STOP);
      }
      if (!stored(job, chapter, staging, pages, page, verdict, body)) {
        return Future.succeededFuture(Step.STOP);
      }
      boolean more = index + 1 < pages.size();
      return (more ? delay(pacing().pageDelayMs()) : Future.<Void>succeededFuture())
          .compose(v -> pages(job, chapter, staging, pages, index + 1));
    });
  }

  /**
   * The pages of a source set to {@code "validation": "decode"}: each page's structure is checked on the lane, its
   * decode, hash and file write run on the decode pool while the lane fetches the next page, at most
   * {@link #PAGES_IN_FLIGHT} at once, and the lane records each in the checkpoint log. Every way out waits for the
   * pages in flight, so the chapter is published only when all are recorded.
   */
  private Future<Step> decodedPages(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages,
      int index, PagesInFlight inFlight) {
    if (inFlight.stopped()) {
      return inFlight.drained().map(Step.STOP);
    }
    if (index >= pages.size()) {
      return inFlight.drained().map(v -> inFlight.stopped() ? Step.STOP : Step.CONTINUE);
    }
    PageRef page = pages.get(index);
    if (staging.has(page.index())) {
      return decodedPages(job, chapter, staging, pages, index + 1, inFlight);
    }
    if (stopNow(job)) {
      inFlight.stop();
      return inFlight.drained().map(Step.STOP);
    }
    return inFlight.slot().compose(free -> waitingOutHolds(job, () -> source.page(page))).compose(outcome -> {
      if (inFlight.stopped()) {
        return inFlight.drained().map(Step.STOP); // a page in flight failed meanwhile and said so
      }
      if (!outcome.ok()) {
        return inFlight.drained().map(v -> {
          if (inFlight.stop()) {
            failed(job, outcome, "chapter " + chapter.number() + " page " + page.index());
          }
          return Step.STOP;
        });
      }
      PageBytes body = outcome.value();
      PageValidator.Verdict structure = PageValidator.check(body.contentType(), body.bytes());
      if (!structure.valid()) {
        return inFlight.drained().map(v -> {
          if (inFlight.stop()) {
            refused(job, chapter, page, structure);
          }
          return Step.STOP;
        });
      }
      // The decode, the hash and the page's file (part file, fdatasync, rename) run on the pool; the result comes back
      // on this (the lane's) context, where the page is recorded in the checkpoint log. So the lane's own work per
      // page is the fetch, the structure walk and one log line, and the decode pool overlaps everything else.
      inFlight.add(decoder().executeBlocking(() -> decodedAndWritten(structure, staging, page, body.bytes()), false)
          .recover(error -> Future.succeededFuture(
              new DecodedPage(new PageValidator.Verdict(null, "the decode failed: " + error), null, null)))
          .map(decoded -> {
            if (inFlight.stopped()) {
              return null; // a page written but never recorded is not a page: fetched again on resume
            }
            if (!decoded.verdict().valid()) {
              inFlight.stop();
              refused(job, chapter, page, decoded.verdict());
            } else if (!recorded(job, chapter, staging, pages, decoded)) {
              inFlight.stop();
            }
            return null;
          }));
      boolean more = index + 1 < pages.size();
      return (more ? delay(pacing().pageDelayMs()) : Future.<Void>succeededFuture())
          .compose(v -> decodedPages(job, chapter, staging, pages, index + 1, inFlight));
    });
  }

  /** A page that is not a valid image fails the job as a parser failure, naming the page and why. */
  private void refused(Job job, ChapterEntry chapter, PageRef page, PageValidator.Verdict verdict) {
    failed(job, new FetchOutcome.ParseError<>("page " + page.index() + " of chapter " + chapter.number()
        + " is not a valid image: " + verdict.refusal()), "chapter " + chapter.number());
  }

  /** Stores a validated page and renews the lease; false when the lane must stop (storage failed, lease lost). */
  private boolean stored(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages, PageRef page,
      PageValidator.Verdict verdict, PageBytes body) {
    try {
      staging.store(page, verdict.extension(), body.bytes());
    } catch (IOException e) {
      storageFailed(job, e);
      return false;
    }
    return renewedAndReported(job, chapter, staging, pages);
  }

  /** A decode pool's page: its verdict and, when valid, its file written (or why writing it failed). */
  private record DecodedPage(PageValidator.Verdict verdict, Checkpoint.Page written, IOException writeFailure) {
  }

  /** On the decode pool: decodes a page that passed the structure walk and, when it decodes, writes its file. */
  private static DecodedPage decodedAndWritten(PageValidator.Verdict structure, StagingFolder staging, PageRef page,
      byte[] bytes) {
    PageValidator.Verdict verdict = PageValidator.decode(structure, bytes);
    if (!verdict.valid()) {
      return new DecodedPage(verdict, null, null);
    }
    try {
      return new DecodedPage(verdict, staging.write(page, verdict.extension(), bytes), null);
    } catch (IOException e) {
      return new DecodedPage(verdict, null, e);
    }
  }

  /** Records a page the decode pool wrote and renews the lease; false when the lane must stop. */
  private boolean recorded(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages,
      DecodedPage decoded) {
    try {
      if (decoded.writeFailure() != null) {
        throw decoded.writeFailure();
      }
      staging.record(decoded.written());
    } catch (IOException e) {
      storageFailed(job, e);
      return false;
    }
    return renewedAndReported(job, chapter, staging, pages);
  }

  private boolean renewedAndReported(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages) {
    if (!queue.renew(job.id(), owner, lease)) {
      return false;
    }
    report(latest, chapter, staging.validatedPages(), pages.size());
    return true;
  }

  /**
   * The scraper's page decode pool, one for every lane of this Vert.x instance (shared by name), sized to the cores;
   * made on first use, so a scraper whose sources all use structure validation starts no thread for it. Vert.x closes
   * it when the last lane that took it is undeployed.
   */
  private WorkerExecutor decoder() {
    if (decoder == null) {
      decoder = vertx.createSharedWorkerExecutor(DECODE_POOL, DECODE_THREADS, 2, TimeUnit.MINUTES);
    }
    return decoder;
  }

  private Step publish(Job job, ChapterEntry chapter, StagingFolder staging) {
    int count = staging.pageCount();
    // No commit before the rename: a crash after it is recorded as published at start-up (the library holds the
    // chapter with the queue's fingerprint), one before it resumes the complete staging folder.
    try {
      ChapterPublisher.Publication publication = publisher.publish(staging);
      ChapterPublisher.Result result = publication.result();
      if (result == ChapterPublisher.Result.FOLDER_TAKEN) {
        folderTaken(job, chapter, count, staging.fingerprint(), "library/"
            + library.root().relativize(library.chapter(staging.key()))
            + " belongs to another title or chapter; staged pages kept in " + staging.path().getFileName());
        return Step.CONTINUE;
      }
      if (result == ChapterPublisher.Result.CONFLICT) {
        recorded(queue.chapterFailed(job.id(), chapter.id(), count, staging.fingerprint(),
            "conflict: the library already holds a different chapter at " + library.chapter(staging.key())
                + "; staged pages kept in " + staging.path().getFileName()));
        return Step.CONTINUE;
      }
      recorded(queue.chapterPublished(job.id(), chapter.id(), count, publication.chapter()));
      LOG.info("[LANE {}] published {} chapter {} ({} pages){}", source.name(), job.titleId(), chapter.number(), count,
          result == ChapterPublisher.Result.ALREADY_PUBLISHED ? " (was already in the library)" : "");
      return Step.CONTINUE;
    } catch (IOException e) {
      storageFailed(job, e);
      return Step.STOP;
    }
  }

  /** Keeps the job as the queue answered a chapter operation. */
  private void recorded(QueueOutcome outcome) {
    if (outcome.job() != null) {
      latest = outcome.job();
    }
  }

  // ---- failures -----------------------------------------------------------------------------------------------

  /** The chapter's folder belongs to something else: never overwritten; the chapter fails, the others go on. */
  private void folderTaken(Job job, ChapterEntry chapter, int pages, String fingerprint, String why) {
    LOG.warn("[LANE {}] chapter {} ({}) of job {} ({}) not published: folder_taken: {}", source.name(),
        chapter.number(), chapter.id(), job.id(), job.titleId(), why);
    recorded(queue.chapterFailed(job.id(), chapter.id(), pages, fingerprint, "folder_taken: " + why));
  }

  /**
   * Calls the source for an active job, waiting out any hold it announces ({@link FetchOutcome.Held}: MangaDex's
   * at-home limit, a spent budget) in place — the job stays active, its lease renewed, nothing recorded as a failure —
   * and asking again when the hold ends. A hold longer than {@link #LONGEST_WAIT_IN_PLACE}, or a stop (lane paused,
   * shutdown, yield) during the wait, comes back as the {@code Held} outcome.
   */
  private <T> Future<FetchOutcome<T>> waitingOutHolds(Job job, Supplier<Future<FetchOutcome<T>>> call) {
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
  private Future<Boolean> waitUntil(Job job, java.time.Instant until) {
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
  private void failed(Job job, FetchOutcome<?> outcome, String where) {
    if (outcome instanceof FetchOutcome.Held<?> held) {
      heldBack(job, held.until(), held.reason());
      return;
    }
    if (outcome instanceof FetchOutcome.RateLimited<?> limited) {
      java.time.Instant until = clock.instant().plus(limited.retryAfter());
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

  /** The lane holds until {@code until}; the job, if this lane still holds it, goes back to the queue at once. */
  private void heldBack(Job job, java.time.Instant until, String reason) {
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

  private void storageFailed(Job job, Throwable error) {
    Failure failure = error instanceof IOException io ? FailureClassifier.classify(io)
        : new Failure(FailureKind.UNKNOWN, null, "storage: " + error);
    failures.respond(job, owner, failure);
  }

  // ---- helpers ------------------------------------------------------------------------------------------------

  private boolean stopNow(Job job) {
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
    return !queue.renew(job.id(), owner, lease);
  }

  private Pacing pacing() {
    return Pacing.of(sourceConfig, queue.lanes().lane(source.name()));
  }

  private Future<Void> delay(long ms) {
    return Delays.after(vertx, ms);
  }

  private void report(Job job, ChapterEntry chapter, int page, int pages) {
    progress.update(new JobProgress(job.id(), job.source(), job.title(), job.state().wire(),
        chapter == null ? null : chapter.id(), chapter == null ? null : chapter.number(), page, pages,
        (int) job.publishedChapters(), job.chapters().size()));
  }
}
