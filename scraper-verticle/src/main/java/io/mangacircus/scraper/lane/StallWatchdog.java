package io.mangacircus.scraper.lane;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.RetryPolicy;
import io.mangacircus.scraper.failure.StallWatch;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The stall watchdog's tick: shows {@link StallWatch} each active job's checkpoint fingerprint and hands a stalled job
 * to its source's {@link FailureResponder}, the same that answers the lane's own failures (docs/architecture.md §5).
 * Blocking (it looks at checkpoint logs on disk): run it on a worker.
 */
public final class StallWatchdog {

  private final JobQueue queue;
  private final LibraryFolders library;
  private final Map<String, SourceConfig> sources;
  private final ScraperConfig.Stall limits;
  private final StallWatch watch;
  private final InstantSource clock;
  private final Map<String, FailureResponder> responders = new ConcurrentHashMap<>();
  private final Function<String, FailureResponder> responderOf;

  public StallWatchdog(JobQueue queue, LibraryFolders library, Map<String, SourceConfig> sources, ScraperConfig config,
      SystemicParserWatch systemic, InstantSource clock) {
    this.clock = clock;
    this.queue = queue;
    this.library = library;
    this.sources = Map.copyOf(sources);
    this.limits = config.stall();
    this.watch = new StallWatch(Duration.ofSeconds(limits.stallAfterSeconds()),
        Duration.ofSeconds(limits.chapterDelayGraceSeconds()), clock);
    RetryPolicy policy = RetryPolicy.of(config.failures());
    this.responderOf = source -> new FailureResponder(queue, source, systemic, clock, policy, true);
  }

  /**
   * One look at every active job; stalled ones are requeued once, then quarantined. A job whose source holds (a wait
   * the source named, or a spent request budget, which the lane waits out in place) is not looked at while the hold
   * lasts: that time does not count toward its window, as paused time does not.
   */
  public void tick() {
    boolean queuePaused = queue.lanes().yieldReason() != null
        || sources.keySet().stream().allMatch(s -> queue.lanes().lane(s).paused());
    java.time.Instant now = clock.instant();
    List<StallWatch.Observation> active = new ArrayList<>();
    for (Job job : queue.jobs()) {
      if (job.state() == JobState.ACTIVE && !queue.lanes().lane(job.source()).holding(now)) {
        SourceConfig source = sources.get(job.source());
        long chapterDelay = source == null ? 0 : Pacing.of(source, queue.lanes().lane(job.source())).chapterDelayMs();
        active.add(new StallWatch.Observation(job.id(), checkpointFingerprint(job), Duration.ofMillis(chapterDelay)));
      }
    }
    Failure stall = new Failure(FailureKind.STALL, null, "no checkpoint progress for " + limits.stallAfterSeconds()
        + " s (or chapter delay + " + limits.chapterDelayGraceSeconds() + " s)");
    for (String jobId : watch.tick(active, queuePaused)) {
      queue.job(jobId).ifPresent(job -> responders.computeIfAbsent(job.source(), responderOf).stalled(job, stall));
    }
  }

  /**
   * Completed chapters and the pages recorded in the open chapters' checkpoint logs (their size: one {@code stat} per
   * open chapter, whatever the chapter's length).
   */
  private OptionalLong checkpointFingerprint(Job job) {
    long recorded = 0;
    for (ChapterEntry chapter : job.chapters()) {
      if (chapter.stage().open() && chapter.fingerprint() != null) {
        recorded += StagingFolder.progressMark(library.staging(chapter.fingerprint()));
      }
    }
    return OptionalLong.of(job.publishedChapters() * 1_000_000_000_000L + recorded);
  }
}
