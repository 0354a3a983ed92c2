package io.mangacircus.scraper.queue;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;

/** Builders for queue tests: a queue in a temporary folder with a clock the test moves. */
final class QueueFixtures {

  private QueueFixtures() {
  }

  static JobQueue queue(Path dir, InstantSource clock) {
    return new JobQueue(new QueueStore(dir.resolve("queue.json")), new EventLog(dir.resolve("events.log")), clock,
        Set.of("demo", "other"), QueueListener.NONE);
  }

  static List<ChapterEntry> chapters(int count) {
    return java.util.stream.IntStream.rangeClosed(1, count)
        .mapToObj(i -> ChapterEntry.planned("c" + i, String.valueOf(i), "Chapter " + i)).toList();
  }
}
