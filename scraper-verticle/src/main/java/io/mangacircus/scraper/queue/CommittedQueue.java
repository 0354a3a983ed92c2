package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.scraper.failure.Incident;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The queue as last made durable (loaded, or committed to the journal), and the journal line of what a queue changed
 * since: the jobs that are new instances, the ids removed, the lanes and incidents when they differ. Used under the
 * store's lock.
 */
final class CommittedQueue {

  /** One commit's journal line and what it makes durable. */
  record Change(byte[] line, List<Job> changed, List<String> removed, QueueFile queue) {
  }

  private final SnapshotFile jobLines;
  private final ObjectMapper compact;
  private final Map<String, Job> written = new java.util.HashMap<>();
  /**
   * The jobs of the last load or commit, in order: the same jobs as {@link #written}. A job at the same place that is
   * the same instance is unchanged without a look-up (most of a long queue, at every commit).
   */
  private List<Job> writtenOrder;
  private Map<String, LaneSettings> writtenLanes;
  private List<Incident> writtenIncidents;

  /**
   * @param loaded the queue as loaded
   * @param jobLines serializes the changed jobs, keeping their JSON for the next snapshot
   * @param compact writes the rest of a line without indentation
   */
  CommittedQueue(QueueFile loaded, SnapshotFile jobLines, ObjectMapper compact) {
    this.jobLines = jobLines;
    this.compact = compact;
    loaded.jobs().forEach(job -> written.put(job.id(), job));
    writtenOrder = List.copyOf(loaded.jobs());
    writtenLanes = loaded.lanes();
    writtenIncidents = loaded.incidents();
  }

  /** The journal line (sequence {@code seq}) of what changed since the durable state; null when nothing did. */
  Change changeLine(QueueFile queue, long seq) throws IOException {
    List<Job> changed = new ArrayList<>();
    int kept = 0;
    List<Job> jobs = queue.jobs();
    List<Job> order = writtenOrder;
    for (int i = 0; i < jobs.size(); i++) {
      Job job = jobs.get(i);
      if (order != null && i < order.size() && order.get(i) == job) {
        kept++;
        continue;
      }
      Job before = written.get(job.id());
      if (before != job) {
        changed.add(job);
      }
      if (before != null) {
        kept++;
      }
    }
    List<String> removed = new ArrayList<>();
    if (kept < written.size()) {
      java.util.Set<String> ids = new java.util.HashSet<>(queue.jobs().size() * 2);
      queue.jobs().forEach(job -> ids.add(job.id()));
      written.keySet().stream().filter(id -> !ids.contains(id)).forEach(removed::add);
    }
    boolean lanesChanged = !queue.lanes().equals(writtenLanes);
    boolean incidentsChanged = !queue.incidents().equals(writtenIncidents);
    if (changed.isEmpty() && removed.isEmpty() && !lanesChanged && !incidentsChanged) {
      return null;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(256);
    out.write(("{\"seq\":" + seq + ",\"jobs\":[").getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < changed.size(); i++) {
      byte[] json = jobLines.jobLine(changed.get(i));
      if (i > 0) {
        out.write(',');
      }
      out.write(json);
    }
    out.write("],\"removed\":".getBytes(StandardCharsets.UTF_8));
    out.write(compact.writeValueAsBytes(removed));
    if (lanesChanged) {
      out.write(",\"lanes\":".getBytes(StandardCharsets.UTF_8));
      out.write(compact.writeValueAsBytes(queue.lanes()));
    }
    if (incidentsChanged) {
      out.write(",\"incidents\":".getBytes(StandardCharsets.UTF_8));
      out.write(compact.writeValueAsBytes(queue.incidents()));
    }
    out.write('}');
    out.write('\n');
    return new Change(out.toByteArray(), changed, removed, queue);
  }

  /** The change's line is durable: it becomes the durable state. */
  void committed(Change change) {
    change.removed().forEach(written::remove);
    change.changed().forEach(job -> written.put(job.id(), job));
    writtenOrder = List.copyOf(change.queue().jobs());
    writtenLanes = change.queue().lanes();
    writtenIncidents = change.queue().incidents();
  }

  /** Whether {@code queue} differs from the durable state (a commit would write a line). */
  boolean differsFrom(QueueFile queue) {
    return queue.jobs().size() != written.size() || queue.jobs().stream().anyMatch(j -> written.get(j.id()) != j)
        || !queue.lanes().equals(writtenLanes) || !queue.incidents().equals(writtenIncidents);
  }
}
