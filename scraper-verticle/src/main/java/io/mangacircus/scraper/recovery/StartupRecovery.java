package io.mangacircus.scraper.recovery;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.publish.ChapterKey;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.LibraryLayout;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobQueue.OpenChapter;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.Delays;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs once at start-up, before the lanes: gives back jobs that were active when the scraper stopped, then snapshots
 * every open chapter, re-reads each before acting and classifies it {@code complete / still / gone / unknown}.
 * Source look-ups are paced and the pass is capped, so start-up never blocks for long; running it twice changes
 * nothing the second time.
 */
public final class StartupRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(StartupRecovery.class);

  /** What a pass did. */
  public record Report(int released, Map<RecoveryVerdict, Integer> verdicts, int deferred) {
  }

  private final Vertx vertx;
  private final JobQueue queue;
  private final Map<String, Source> sources;
  private final LibraryLayout library;
  private final ChapterPublisher publisher;
  private final ScraperConfig.Recovery limits;

  public StartupRecovery(Vertx vertx, JobQueue queue, Map<String, Source> sources, LibraryLayout library,
      ChapterPublisher publisher, ScraperConfig.Recovery limits) {
    this.vertx = vertx;
    this.queue = queue;
    this.sources = Map.copyOf(sources);
    this.library = library;
    this.publisher = publisher;
    this.limits = limits;
  }

  /** One recovery pass. Queue writes (fsyncs) run on a worker thread, never on the caller's event loop. */
  public Future<Report> run() {
    return vertx.executeBlocking(queue::releaseAllAtStartup).compose(this::classifyOpenChapters);
  }

  private Future<Report> classifyOpenChapters(List<Job> released) {
    released.forEach(job -> LOG.info("[RECOVERY] job {} ({}) was active when the scraper stopped: back to pending "
        + "(system interruption, attempts unchanged)", job.id(), job.title()));
    List<OpenChapter> open = queue.openChapters();
    if (open.isEmpty()) {
      LOG.info("[RECOVERY] no open chapters");
      return Future.succeededFuture(new Report(released.size(), new EnumMap<>(RecoveryVerdict.class), 0));
    }
    int deferred = Math.max(0, open.size() - limits.maxPerPass());
    List<OpenChapter> pass = open.subList(0, Math.min(open.size(), limits.maxPerPass()));
    LOG.info("[RECOVERY] {} open chapters; classifying {} now{}", open.size(), pass.size(),
        deferred > 0 ? ", " + deferred + " on a later pass (the lanes resume them meanwhile)" : "");
    Map<RecoveryVerdict, Integer> verdicts = new EnumMap<>(RecoveryVerdict.class);
    Future<Void> chain = Future.succeededFuture();
    for (OpenChapter chapter : pass) {
      chain = chain.compose(v -> classify(chapter).map(verdict -> {
        verdicts.merge(verdict, 1, Integer::sum);
        return null;
      }));
    }
    return chain.map(v -> {
      LOG.info("[RECOVERY] done: {} ({} jobs given back)", verdicts, released.size());
      return new Report(released.size(), verdicts, deferred);
    });
  }

  /** Classifies one open chapter, re-reading it first, and acts on the verdict. */
  Future<RecoveryVerdict> classify(OpenChapter snapshot) {
    Optional<ChapterEntry> reread = queue.chapter(snapshot.jobId(), snapshot.chapter().id());
    Optional<Job> job = queue.job(snapshot.jobId());
    if (reread.isEmpty() || job.isEmpty() || !reread.get().stage().open()) {
      return Future.succeededFuture(RecoveryVerdict.STILL);
    }
    ChapterEntry chapter = reread.get();
    String where = job.get().id() + " " + job.get().titleId() + " chapter " + chapter.number();
    ChapterKey key = ChapterKey.of(job.get(), chapter);
    String fingerprint = chapter.fingerprint();
    ChapterPublisher.Occupant occupant = publisher.occupant(key);
    if (fingerprint != null && occupant.kind() == ChapterPublisher.Occupant.Kind.THIS_CHAPTER
        && fingerprint.equals(occupant.fingerprint())) {
      LOG.info("[RECOVERY] {}: complete (the library already holds it with this fingerprint); recorded as published",
          where);
      return vertx.executeBlocking(() -> queue.chapterPublished(job.get().id(), chapter.id(), chapter.pages(),
          publisher.published(occupant).chapter())).map(recorded -> RecoveryVerdict.COMPLETE);
    }
    if (fingerprint != null) {
      Path staging = library.staging(fingerprint);
      if (Files.isDirectory(staging)) {
        try {
          int pages = StagingFolder.readCheckpoint(staging).map(c -> c.pages().size()).orElse(0);
          LOG.info("[RECOVERY] {}: still (staging holds {} validated pages); the lane resumes from the checkpoint",
              where, pages);
          return Future.succeededFuture(RecoveryVerdict.STILL);
        } catch (CorruptStateFileException e) {
          LOG.warn("[RECOVERY] {}: unknown ({}); nothing changed", where, e.getMessage());
          return Future.succeededFuture(RecoveryVerdict.UNKNOWN);
        }
      }
    }
    Source source = sources.get(job.get().source());
    if (source == null) {
      LOG.warn("[RECOVERY] {}: unknown (source {} is not configured); nothing changed", where, job.get().source());
      return Future.succeededFuture(RecoveryVerdict.UNKNOWN);
    }
    ChapterInfo info = new ChapterInfo(chapter.id(), chapter.number(), chapter.title(), job.get().language());
    return source.pages(job.get().titleId(), info).compose(outcome -> {
      Future<RecoveryVerdict> verdict;
      if (outcome.ok()) {
        LOG.info("[RECOVERY] {}: still (nothing staged; the source still lists it)", where);
        verdict = Future.succeededFuture(RecoveryVerdict.STILL);
      } else if (outcome instanceof FetchOutcome.NotFound<?>) {
        LOG.info("[RECOVERY] {}: gone (the source says {}; nothing staged); recorded as failed, reason chapter_gone",
            where, outcome.describe());
        verdict = vertx.executeBlocking(() -> {
          Optional<ChapterEntry> again = queue.chapter(job.get().id(), chapter.id());
          if (again.isPresent() && again.get().stage().open()) {
            queue.chapterFailed(job.get().id(), chapter.id(), chapter.pages(), fingerprint,
                "chapter_gone: " + outcome.describe());
          }
          return RecoveryVerdict.GONE;
        });
      } else {
        LOG.info("[RECOVERY] {}: unknown ({}); nothing changed, next pass will look again", where, outcome.describe());
        verdict = Future.succeededFuture(RecoveryVerdict.UNKNOWN);
      }
      return verdict.compose(v -> delay(limits.delayMs()).map(ignored -> v));
    });
  }

  private Future<Void> delay(long ms) {
    return Delays.after(vertx, ms);
  }
}
