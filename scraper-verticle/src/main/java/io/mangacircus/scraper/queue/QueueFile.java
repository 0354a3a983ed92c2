package io.mangacircus.scraper.queue;

import io.mangacircus.scraper.failure.Incident;
import java.util.List;
import java.util.Map;

/**
 * The content of {@code data/scraper/queue.json}.
 *
 * @param schema the schema number ({@link QueueStore#SCHEMA} when written by this version)
 * @param jobs every job, in the order they were added
 * @param lanes run-time lane settings by source name
 * @param incidents the most recent incidents, oldest first (at most {@link IncidentStore#MAX_INCIDENTS})
 */
public record QueueFile(int schema, List<Job> jobs, Map<String, LaneSettings> lanes, List<Incident> incidents) {

  public QueueFile {
    jobs = List.copyOf(jobs);
    lanes = Map.copyOf(lanes);
    incidents = incidents == null ? List.of() : List.copyOf(incidents);
  }

  /** A queue with nothing in it. */
  public static QueueFile empty() {
    return new QueueFile(QueueStore.SCHEMA, List.of(), Map.of(), List.of());
  }
}
