package io.mangacircus.scraper.queue;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;

/** Builders for queue tests: a queue in a temporary folder with a clock the test moves. */
public final class QueueFixtures {

  private QueueFixtures() {
  }

  public static JobQueue queue(Path dir, InstantSource clock) {
    return new JobQueue(new QueueStore(dir.resolve("queue.json")), new EventLog(dir.resolve("events.log")), clock,
        Set.of("demo", "other"), QueueListener.NONE);
  }

  static List<ChapterEntry> chapters(int count) {
    return java.util.stream.IntStream.rangeClosed(1, count)
        .mapToObj(i -> ChapterEntry.planned("c" + i, String.valueOf(i), "Chapter " + i)).toList();
  }

  /**
   * Rewrites one chapter's stage in a {@code queue.json} as an earlier version wrote it ({@code staged},
   * {@code publishing}: stages this version reads but no longer writes). No queue may hold the file meanwhile.
   */
  public static void stageAsAnEarlierVersionWroteIt(Path queueJson, String jobId, String chapterId, String stage)
      throws java.io.IOException {
    // The changes still in the journal are folded into queue.json first, so that the edit is the last word.
    QueueStore store = new QueueStore(queueJson);
    store.compact(store.load());
    io.vertx.core.json.JsonObject root = new io.vertx.core.json.JsonObject(java.nio.file.Files.readString(queueJson));
    root.getJsonArray("jobs").stream().map(io.vertx.core.json.JsonObject.class::cast)
        .filter(job -> job.getString("id").equals(jobId)).flatMap(job -> job.getJsonArray("chapters").stream())
        .map(io.vertx.core.json.JsonObject.class::cast).filter(c -> c.getString("id").equals(chapterId))
        .forEach(c -> c.put("stage", stage));
    java.nio.file.Files.writeString(queueJson, root.encodePrettily());
  }
}
