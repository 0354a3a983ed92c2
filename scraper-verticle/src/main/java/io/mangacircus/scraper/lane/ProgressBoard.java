package io.mangacircus.scraper.lane;

import io.mangacircus.contracts.JobProgress;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The latest progress of every job a lane worked on in this process; published on the bus as it changes, a job's
 * page-by-page progress at most every {@link #PAGE_INTERVAL} (the first and the last page of a chapter, and any change
 * of state or chapter, always).
 */
public final class ProgressBoard {

  /** The least time between two published page updates of one job within a chapter. */
  public static final Duration PAGE_INTERVAL = Duration.ofMillis(250);

  private record Published(JobProgress progress, Instant at) {
  }

  private final Map<String, JobProgress> latest = new ConcurrentHashMap<>();
  private final Map<String, Published> published = new ConcurrentHashMap<>();
  private final Consumer<JobProgress> publisher;
  private final InstantSource clock;

  /**
   * @param publisher called with the updates to publish (the scraper verticle publishes them on the event bus)
   * @param clock when updates happen, for {@link #PAGE_INTERVAL}
   */
  public ProgressBoard(Consumer<JobProgress> publisher, InstantSource clock) {
    this.publisher = publisher;
    this.clock = clock;
  }

  /** As above on the system clock. */
  public ProgressBoard(Consumer<JobProgress> publisher) {
    this(publisher, InstantSource.system());
  }

  public void update(JobProgress progress) {
    latest.put(progress.jobId(), progress);
    Instant now = clock.instant();
    Published last = published.get(progress.jobId());
    if (last == null || !samePlace(last.progress(), progress) || progress.page() <= 0
        || progress.page() >= progress.pages() || !now.isBefore(last.at().plus(PAGE_INTERVAL))) {
      published.put(progress.jobId(), new Published(progress, now));
      publisher.accept(progress);
    }
  }

  public Optional<JobProgress> of(String jobId) {
    return Optional.ofNullable(latest.get(jobId));
  }

  /** The same job state, chapter and chapter counts: only the page moved. */
  private static boolean samePlace(JobProgress a, JobProgress b) {
    return Objects.equals(a.state(), b.state()) && Objects.equals(a.chapterId(), b.chapterId())
        && a.pages() == b.pages() && a.chaptersDone() == b.chaptersDone() && a.chapters() == b.chapters()
        && Objects.equals(a.title(), b.title());
  }
}
