package io.mangacircus.scraper.lane;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.publish.ChapterKey;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.SeriesDescriptions;
import io.mangacircus.scraper.publish.Fingerprints;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueOutcome;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one lane's claimed work, one job at a time: inspection (metadata only, {@link JobInspection}) or the download of
 * every chapter, page by page with a checkpoint after every page ({@link ChapterPages}), then one-rename publication.
 * Runs on the lane's worker context, so file writes and fsyncs happen inline. Stops at the next checkpoint when asked
 * or when the lease is lost ({@link LaneRules}).
 */
public final class JobDownloader {

  private static final Logger LOG = LoggerFactory.getLogger(JobDownloader.class);

  /** How a chapter's work ended. */
  enum Step { CONTINUE, STOP }

  private final Source source;
  private final JobQueue queue;
  private final LibraryFolders library;
  private final ChapterPublisher publisher;
  private final InstantSource clock;
  private final String owner;
  private final LaneRules rules;
  private final JobReport report;
  private final JobInspection inspection;
  private final ChapterPages chapterPages;

  public JobDownloader(Vertx vertx, Source source, SourceConfig sourceConfig, JobQueue queue, LibraryFolders library,
      ProgressBoard progress, InstantSource clock, Duration lease, String owner, BooleanSupplier stopRequested,
      FailureResponder failures) {
    this.source = source;
    this.queue = queue;
    this.library = library;
    SeriesDescriptions descriptions = new SeriesDescriptions(library);
    this.publisher = new ChapterPublisher(library, clock, descriptions);
    this.clock = clock;
    this.owner = owner;
    this.rules = new LaneRules(vertx, source, sourceConfig, queue, clock, lease, owner, stopRequested, failures);
    this.report = new JobReport(progress);
    this.inspection = new JobInspection(source, queue, clock, owner, rules, descriptions);
    this.chapterPages = new ChapterPages(vertx, source, sourceConfig, rules, report);
  }

  /**
   * Reads a title's metadata (never images) and records its chapters in the job's language (chapters a source lists
   * without a language count as English), one per number by the job's group preference where the source has groups.
   */
  public Future<Void> inspect(Job job) {
    return inspection.inspect(job);
  }

  // ---- download -----------------------------------------------------------------------------------------------

  /**
   * Downloads every unsettled chapter of an active job, in order, then marks the job done; scheduled and external
   * chapters are never asked for.
   */
  public Future<Void> download(Job job) {
    report.start(job);
    return chapters(job, 0).compose(step -> {
      if (step == Step.CONTINUE) {
        QueueOutcome finished = queue.finish(job.id(), owner);
        if (finished.accepted()) {
          report.report(finished.job(), null, 0, 0);
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
    if (rules.stopNow(job)) {
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
      return (more ? rules.delay(rules.pacing().chapterDelayMs()) : Future.<Void>succeededFuture())
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
    return rules.waitingOutHolds(job, () -> source.pages(job.titleId(), info)).compose(outcome -> {
      if (outcome instanceof FetchOutcome.NotFound<?>) {
        recorded(queue.chapterFailed(job.id(), chapter.id(), chapter.pages(), chapter.fingerprint(),
            "chapter_gone: " + outcome.describe()));
        return Future.succeededFuture(Step.CONTINUE);
      }
      if (!outcome.ok()) {
        rules.failed(job, outcome, "chapter " + chapter.number());
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
        rules.failed(job, new Failure(FailureKind.UNKNOWN, null, "staging unusable: " + e.getMessage()));
        return Future.succeededFuture(Step.STOP);
      } catch (UncheckedIOException e) {
        rules.storageFailed(job, e.getCause());
        return Future.succeededFuture(Step.STOP);
      }
      recorded(queue.startChapter(job.id(), chapter.id(), pages.size(), fingerprint));
      report.report(chapter, staging.validatedPages(), pages.size());
      // The checkpoint log stays open for the chapter: closed once it is published, stopped or failed.
      return chapterPages.fetch(job, chapter, staging, pages)
          .map(step -> step == Step.CONTINUE ? publish(job, chapter, staging) : Step.STOP)
          .onComplete(done -> staging.close());
    });
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
      rules.storageFailed(job, e);
      return Step.STOP;
    }
  }

  /** Keeps the job as the queue answered a chapter operation. */
  private void recorded(QueueOutcome outcome) {
    report.recorded(outcome);
  }

  /** The chapter's folder belongs to something else: never overwritten; the chapter fails, the others go on. */
  private void folderTaken(Job job, ChapterEntry chapter, int pages, String fingerprint, String why) {
    LOG.warn("[LANE {}] chapter {} ({}) of job {} ({}) not published: folder_taken: {}", source.name(),
        chapter.number(), chapter.id(), job.id(), job.titleId(), why);
    recorded(queue.chapterFailed(job.id(), chapter.id(), pages, fingerprint, "folder_taken: " + why));
  }
}
