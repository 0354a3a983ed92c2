package io.mangacircus.scraper.lane;

import io.mangacircus.contracts.JobProgress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** The latest progress of every job a lane worked on in this process; published on the bus as it changes. */
public final class ProgressBoard {

  private final Map<String, JobProgress> latest = new ConcurrentHashMap<>();
  private final Consumer<JobProgress> publisher;

  /** @param publisher called with every update (the scraper verticle publishes it on the event bus) */
  public ProgressBoard(Consumer<JobProgress> publisher) {
    this.publisher = publisher;
  }

  public void update(JobProgress progress) {
    latest.put(progress.jobId(), progress);
    publisher.accept(progress);
  }

  public Optional<JobProgress> of(String jobId) {
    return Optional.ofNullable(latest.get(jobId));
  }
}
