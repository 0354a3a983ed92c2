package io.mangacircus.scraper.lane;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.lane.JobDownloader.Step;
import io.mangacircus.scraper.publish.Checkpoint;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.validate.PageValidator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Fetches, validates and stores the pages of one chapter into its staging folder, page by page with a checkpoint after
 * each; for a source set to {@code "validation": "decode"}, the decode and the file write run on the shared decode
 * pool while the lane fetches on. Stops at the first page that fails, is refused or cannot be stored.
 */
final class ChapterPages {

  /** The name of the page decode pool that every lane of the scraper shares. */
  static final String DECODE_POOL = "mc-page-decode";
  /** Pages decoded at once: one per core. */
  static final int DECODE_THREADS = Runtime.getRuntime().availableProcessors();
  /** Pages a lane has in flight (fetched, not yet stored): two per decode thread, so no thread waits for the lane. */
  static final int PAGES_IN_FLIGHT = 2 * DECODE_THREADS;

  private final Vertx vertx;
  private final Source source;
  private final SourceConfig sourceConfig;
  private final LaneRules rules;
  private final JobReport report;
  /** The page decode pool, for a source set to {@code "validation": "decode"}; null until first used. */
  private WorkerExecutor decoder;

  ChapterPages(Vertx vertx, Source source, SourceConfig sourceConfig, LaneRules rules, JobReport report) {
    this.vertx = vertx;
    this.source = source;
    this.sourceConfig = sourceConfig;
    this.rules = rules;
    this.report = report;
  }

  /** Every page of the chapter not yet in its staging folder, in order; {@link Step#STOP} when one stopped the lane. */
  Future<Step> fetch(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages) {
    return pages(job, chapter, staging, pages, 0);
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
    if (rules.stopNow(job)) {
      return Future.succeededFuture(Step.STOP);
    }
    return rules.waitingOutHolds(job, () -> source.page(page)).compose(outcome -> {
      if (!outcome.ok()) {
        rules.failed(job, outcome, "chapter " + chapter.number() + " page " + page.index());
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
      return (more ? rules.delay(rules.pacing().pageDelayMs()) : Future.<Void>succeededFuture())
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
    if (rules.stopNow(job)) {
      inFlight.stop();
      return inFlight.drained().map(Step.STOP);
    }
    return inFlight.slot().compose(free -> rules.waitingOutHolds(job, () -> source.page(page))).compose(outcome -> {
      if (inFlight.stopped()) {
        return inFlight.drained().map(Step.STOP); // a page in flight failed meanwhile and said so
      }
      if (!outcome.ok()) {
        return inFlight.drained().map(v -> {
          if (inFlight.stop()) {
            rules.failed(job, outcome, "chapter " + chapter.number() + " page " + page.index());
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
      return (more ? rules.delay(rules.pacing().pageDelayMs()) : Future.<Void>succeededFuture())
          .compose(v -> decodedPages(job, chapter, staging, pages, index + 1, inFlight));
    });
  }

  /** A page that is not a valid image fails the job as a parser failure, naming the page and why. */
  private void refused(Job job, ChapterEntry chapter, PageRef page, PageValidator.Verdict verdict) {
    rules.failed(job, new FetchOutcome.ParseError<>("page " + page.index() + " of chapter " + chapter.number()
        + " is not a valid image: " + verdict.refusal()), "chapter " + chapter.number());
  }

  /** Stores a validated page and renews the lease; false when the lane must stop (storage failed, lease lost). */
  private boolean stored(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages, PageRef page,
      PageValidator.Verdict verdict, PageBytes body) {
    try {
      staging.store(page, verdict.extension(), body.bytes());
    } catch (IOException e) {
      rules.storageFailed(job, e);
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
      rules.storageFailed(job, e);
      return false;
    }
    return renewedAndReported(job, chapter, staging, pages);
  }

  private boolean renewedAndReported(Job job, ChapterEntry chapter, StagingFolder staging, List<PageRef> pages) {
    if (!rules.renewed(job)) {
      return false;
    }
    report.report(chapter, staging.validatedPages(), pages.size());
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
}
