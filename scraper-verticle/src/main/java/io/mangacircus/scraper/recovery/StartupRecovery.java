package io.mangacircus.scraper.recovery;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.publish.SeriesFolders;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobQueue.OpenChapter;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.pacing.Delays;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs once at start-up, before the lanes: gives back jobs that were active when the scraper stopped, then snapshots
 * every open chapter, re-reads each before acting and classifies it {@code complete / still / gone / unknown}. Every
 * chapter the library or its staging folder decides is classified at once (the complete ones recorded in one commit);
 * only source look-ups are paced ({@code delayMs}) and capped ({@code maxPerPass}), so start-up never blocks for long;
 * running it twice changes nothing the second time. It ends with one summary line of counts per verdict.
 */
public final class StartupRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(StartupRecovery.class);

  /** What a pass did; {@code stopped} when a {@link #stop} ended it before every open chapter was looked at. */
  public record Report(int released, Map<RecoveryVerdict, Integer> verdicts, int deferred, boolean stopped) {
  }

  private final Vertx vertx;
  private final Consumer<Runnable> aroundPublications;
  private final JobQueue queue;
  private final Map<String, Source> sources;
  private final LibraryFolders library;
  private final ChapterPublisher publisher;
  private final ScraperConfig.Recovery limits;
  private final FileVerdicts files;
  /** The pass's queue writes and {@link #stop} take turns on it: once a stop returned, the pass writes nothing. */
  private final Object writes = new Object();
  private volatile boolean stopped;
  /** Completed by {@link #stop}, on the context the pass runs on: a source look-up under way is not waited for. */
  private final io.vertx.core.Promise<Void> stopSignal = io.vertx.core.Promise.promise();
  private final io.vertx.core.Context context;

  public StartupRecovery(Vertx vertx, JobQueue queue, Map<String, Source> sources, LibraryFolders library,
      ChapterPublisher publisher, ScraperConfig.Recovery limits) {
    this(vertx, queue, sources, library, publisher, limits, Runnable::run);
  }

  /**
   * As above, with {@code aroundPublications} running the one commit of the complete chapters found in the library
   * (the scraper's follows record their new chapters with one save for all of them: {@code Follows#batch}).
   */
  public StartupRecovery(Vertx vertx, JobQueue queue, Map<String, Source> sources, LibraryFolders library,
      ChapterPublisher publisher, ScraperConfig.Recovery limits, Consumer<Runnable> aroundPublications) {
    this.aroundPublications = aroundPublications;
    this.vertx = vertx;
    this.queue = queue;
    this.sources = Map.copyOf(sources);
    this.library = library;
    this.publisher = publisher;
    this.limits = limits;
    this.context = vertx.getOrCreateContext();
    this.files = new FileVerdicts(queue, this.sources, library, publisher, () -> stopped);
  }

  /**
   * One recovery pass. Queue writes (fsyncs) and file reads run on worker threads, never on the caller's event loop.
   * After {@link #stop} the pass ends at its next chapter: what it decided so far is recorded, the chapters it did not
   * reach are left as they are for the next start, and its report says {@code stopped}.
   */
  public Future<Report> run() {
    return vertx.executeBlocking(() -> {
      long started = System.nanoTime();
      List<Job> released;
      synchronized (writes) {
        if (stopped) {
          return new Snapshot(started, 0, List.of());
        }
        released = queue.releaseAllAtStartup();
      }
      logReleased(released);
      return new Snapshot(started, released.size(), queue.openChapters());
    }).compose(this::classifyOpenChapters);
  }

  /**
   * Stops the pass (the scraper is stopping): it ends between two chapters, and a source look-up under way is not
   * waited for (its answer is ignored). Blocking: waits for a queue write under way, after which the pass writes
   * nothing; the caller then waits for {@link #run}'s future, which ends soon, before it closes the queue.
   */
  public void stop() {
    synchronized (writes) {
      stopped = true;
    }
    context.runOnContext(v -> stopSignal.tryComplete());
  }

  /** What the pass starts from: when it began, the jobs given back, every open chapter. */
  private record Snapshot(long started, int released, List<OpenChapter> open) {
  }

  /**
   * One line for every job given back, naming the first {@link #NAMED} of them (a long queue may give back
   * thousands); each job also gets its own DEBUG line.
   */
  private static void logReleased(List<Job> released) {
    if (released.isEmpty()) {
      return;
    }
    released.forEach(job -> LOG.debug("[RECOVERY] job {} ({}) was active when the scraper stopped: back to pending "
        + "(system interruption, attempts unchanged)", job.id(), job.title()));
    String named = released.stream().limit(NAMED).map(job -> job.id() + " (" + job.title() + ")")
        .collect(java.util.stream.Collectors.joining(", "));
    LOG.info("[RECOVERY] {} jobs were active when the scraper stopped: back to pending (system interruption, attempts "
        + "unchanged): {}{}", released.size(), named, released.size() > NAMED ? " and " + (released.size() - NAMED)
        + " more" : "");
  }

  /** How many jobs or chapters a summary line names. */
  static final int NAMED = 10;
  /** Below this many open chapters the files are read on one worker; above, on one worker per core. */
  private static final int PARALLEL_FROM = 256;

  private Future<Report> classifyOpenChapters(Snapshot snapshot) {
    long started = snapshot.started();
    List<OpenChapter> open = snapshot.open();
    if (stopped) {
      return Future.succeededFuture(stoppedSummary(started, open.size(), snapshot.released(),
          new EnumMap<>(RecoveryVerdict.class)));
    }
    if (open.isEmpty()) {
      LOG.info("[RECOVERY] no open chapters");
      return Future.succeededFuture(summary(started, 0, snapshot.released(), new EnumMap<>(RecoveryVerdict.class), 0,
          0));
    }
    LOG.info("[RECOVERY] {} open chapters; classifying them from the library and staging first", open.size());
    return classifyLocally(open).compose(local -> lookUp(snapshot, local));
  }

  /** After the files: the source look-ups of the pass, one after another, paced; the summary when they are over. */
  private Future<Report> lookUp(Snapshot snapshot, Local local) {
    long started = snapshot.started();
    List<OpenChapter> open = snapshot.open();
    Map<RecoveryVerdict, Integer> verdicts = local.verdicts();
    if (stopped) {
      return Future.succeededFuture(stoppedSummary(started, open.size(), snapshot.released(), verdicts));
    }
    List<OpenChapter> remote = local.needSource();
    LOG.info("[RECOVERY] {} of {} open chapters classified from the library and staging in {} ms: {} complete, {} "
        + "still, {} unknown; {} need their source; {} staging folders belong to no open chapter (left alone)",
        open.size() - remote.size(), open.size(), (System.nanoTime() - started) / 1_000_000,
        verdicts.getOrDefault(RecoveryVerdict.COMPLETE, 0), verdicts.getOrDefault(RecoveryVerdict.STILL, 0),
        verdicts.getOrDefault(RecoveryVerdict.UNKNOWN, 0), remote.size(), local.orphans());
    int deferred = Math.max(0, remote.size() - limits.maxPerPass());
    List<OpenChapter> pass = remote.subList(0, Math.min(remote.size(), limits.maxPerPass()));
    if (!remote.isEmpty()) {
      LOG.info("[RECOVERY] {} open chapters need their source; asking about {} now ({} ms apart){}", remote.size(),
          pass.size(), limits.delayMs(), deferred > 0 ? ", " + deferred + " on a later pass (the lanes resume them "
              + "meanwhile)" : "");
    }
    Future<Void> chain = Future.succeededFuture();
    for (OpenChapter chapter : pass) {
      chain = chain.compose(v -> stopped ? Future.succeededFuture() : askSourceUnlessStopped(chapter, verdicts));
    }
    return chain.map(v -> stopped
        ? stoppedSummary(started, open.size(), snapshot.released(), verdicts)
        : summary(started, open.size(), snapshot.released(), verdicts, pass.size(), deferred));
  }

  /** One source look-up, its verdict counted; a stop ends it at once (the answer, when it comes, is ignored). */
  private Future<Void> askSourceUnlessStopped(OpenChapter chapter, Map<RecoveryVerdict, Integer> verdicts) {
    io.vertx.core.Promise<Void> step = io.vertx.core.Promise.promise();
    askSource(chapter).onComplete(answer -> {
      if (answer.succeeded() && !stopped) {
        verdicts.merge(answer.result(), 1, Integer::sum);
      }
      if (answer.succeeded()) {
        step.tryComplete();
      } else {
        step.tryFail(answer.cause());
      }
    });
    stopSignal.future().onComplete(stop -> step.tryComplete());
    return step.future();
  }

  /**
   * The one line that says recovery is over (docs/operations.md, "Startup recovery"): how long it took, the open
   * chapters, the count of each verdict, the source look-ups made and those deferred to the next start.
   */
  private Report summary(long started, int open, int released, Map<RecoveryVerdict, Integer> verdicts, int lookedUp,
      int deferred) {
    long ms = (System.nanoTime() - started) / 1_000_000;
    LOG.info("[RECOVERY] done in {} ms: {} open chapters, {} complete, {} still, {} gone, {} unknown, {} deferred; {} "
        + "source look-ups (cap {} a pass, {} ms apart); {} jobs given back", ms, open,
        verdicts.getOrDefault(RecoveryVerdict.COMPLETE, 0), verdicts.getOrDefault(RecoveryVerdict.STILL, 0),
        verdicts.getOrDefault(RecoveryVerdict.GONE, 0), verdicts.getOrDefault(RecoveryVerdict.UNKNOWN, 0), deferred,
        lookedUp, limits.maxPerPass(), limits.delayMs(), released);
    return new Report(released, verdicts, deferred, false);
  }

  /**
   * The line that says a stop ended the pass (INFO: a stop is no failure): what was decided so far, and how many open
   * chapters are left as they are for the next start's pass.
   */
  private Report stoppedSummary(long started, int open, int released, Map<RecoveryVerdict, Integer> verdicts) {
    int decided = verdicts.values().stream().mapToInt(Integer::intValue).sum();
    LOG.info("[RECOVERY] stopped after {} ms (the scraper is stopping): {} of {} open chapters looked at ({} complete, "
        + "{} still, {} gone, {} unknown); the other {} are left as they are for the next start; {} jobs given back",
        (System.nanoTime() - started) / 1_000_000, decided, open, verdicts.getOrDefault(RecoveryVerdict.COMPLETE, 0),
        verdicts.getOrDefault(RecoveryVerdict.STILL, 0), verdicts.getOrDefault(RecoveryVerdict.GONE, 0),
        verdicts.getOrDefault(RecoveryVerdict.UNKNOWN, 0), open - decided, released);
    return new Report(released, verdicts, 0, true);
  }

  /** What the files decided, and the chapters only the source can decide. */
  private record Local(Map<RecoveryVerdict, Integer> verdicts, List<OpenChapter> needSource, long orphans) {
  }

  /**
   * Classifies every open chapter the library or its staging folder decides (no source is asked, so no cap applies):
   * the files are read on workers, one run of chapters per core, each title's series folder resolved and listed once
   * for the pass ({@link SeriesFolders}; no lane runs yet, so nothing else changes the library meanwhile); then the
   * chapters found complete are recorded as published in one commit. One line per verdict sums the runs up; each
   * chapter gets a DEBUG line, and an unknown one (an unreadable checkpoint, a source no longer configured) its own
   * WARN line, since the operator has something to look at.
   */
  private Future<Local> classifyLocally(List<OpenChapter> open) {
    SeriesFolders folders = new SeriesFolders(library);
    int runs = open.size() < PARALLEL_FROM ? 1 : Math.max(1, Runtime.getRuntime().availableProcessors());
    int size = (open.size() + runs - 1) / runs;
    List<Future<FileVerdicts.Part>> parts = new ArrayList<>();
    for (int from = 0; from < open.size(); from += size) {
      List<OpenChapter> run = open.subList(from, Math.min(open.size(), from + size));
      parts.add(vertx.executeBlocking(() -> files.classifyRun(run, folders), false));
    }
    return Future.all(parts).compose(all -> vertx.executeBlocking(() -> {
      Map<RecoveryVerdict, Integer> verdicts = new EnumMap<>(RecoveryVerdict.class);
      List<OpenChapter> needSource = new ArrayList<>();
      List<JobQueue.Publication> complete = new ArrayList<>();
      List<String> completeNamed = new ArrayList<>();
      int stagedPages = 0;
      // In the order of the open chapters: the look-ups keep their order.
      for (Future<FileVerdicts.Part> future : parts) {
        FileVerdicts.Part part = future.result();
        part.verdicts().forEach((verdict, count) -> verdicts.merge(verdict, count, Integer::sum));
        needSource.addAll(part.needSource());
        complete.addAll(part.complete());
        completeNamed.addAll(part.completeNamed());
        stagedPages += part.stagedPages();
      }
      if (!complete.isEmpty()) {
        synchronized (writes) {
          if (!stopped) {
            aroundPublications.accept(() -> queue.chaptersPublished(complete));
          }
        }
      }
      FileVerdicts.logVerdicts(verdicts, completeNamed, stagedPages);
      return new Local(verdicts, needSource, files.orphans(open));
    }));
  }

  private static String where(Job job, ChapterEntry chapter) {
    return FileVerdicts.where(job, chapter);
  }

  /**
   * Asks the source about one open chapter with nothing staged (re-read first: a lane may have moved it): still
   * listed, gone (recorded as failed), or unknown; then waits the pause between look-ups.
   */
  Future<RecoveryVerdict> askSource(OpenChapter snapshot) {
    Optional<ChapterEntry> reread = queue.chapter(snapshot.jobId(), snapshot.chapter().id());
    Optional<Job> job = queue.job(snapshot.jobId());
    if (reread.isEmpty() || job.isEmpty() || !reread.get().stage().open()) {
      return Future.succeededFuture(RecoveryVerdict.STILL);
    }
    ChapterEntry chapter = reread.get();
    String where = where(job.get(), chapter);
    String fingerprint = chapter.fingerprint();
    Source source = sources.get(job.get().source());
    ChapterInfo info = new ChapterInfo(chapter.id(), chapter.number(), chapter.title(), job.get().language());
    return source.pages(job.get().titleId(), info).compose(outcome -> {
      Future<RecoveryVerdict> verdict;
      if (outcome.ok()) {
        LOG.info("[RECOVERY] {}: still (nothing staged; the source still lists it)", where);
        verdict = Future.succeededFuture(RecoveryVerdict.STILL);
      } else if (outcome instanceof FetchOutcome.NotFound<?>) {
        verdict = vertx.executeBlocking(() -> {
          Optional<ChapterEntry> again = queue.chapter(job.get().id(), chapter.id());
          synchronized (writes) {
            if (stopped) {
              LOG.info("[RECOVERY] {}: the source says {}, but the scraper is stopping: nothing changed, the next "
                  + "start asks again", where, outcome.describe());
              return RecoveryVerdict.UNKNOWN;
            }
            if (again.isPresent() && again.get().stage().open()) {
              queue.chapterFailed(job.get().id(), chapter.id(), chapter.pages(), fingerprint,
                  "chapter_gone: " + outcome.describe());
            }
          }
          LOG.info("[RECOVERY] {}: gone (the source says {}; nothing staged); recorded as failed, reason chapter_gone",
              where, outcome.describe());
          return RecoveryVerdict.GONE;
        });
      } else {
        LOG.info("[RECOVERY] {}: unknown ({}); nothing changed, next pass will look again", where, outcome.describe());
        verdict = Future.succeededFuture(RecoveryVerdict.UNKNOWN);
      }
      return verdict.compose(v -> stopped ? Future.succeededFuture(v) : delay(limits.delayMs()).map(ignored -> v));
    });
  }

  private Future<Void> delay(long ms) {
    return Delays.after(vertx, ms);
  }
}
