package io.mangacircus.reader.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.SqliteDatabase;
import io.mangacircus.reader.store.SqliteProgressStore;
import io.mangacircus.reader.store.SqliteUserStore;
import io.mangacircus.reader.store.StoreException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress store that tells of finished chapters: told after the reading is saved, only when a chapter was
 * finished or marked read, whatever path saved it; a listener that fails leaves the reading saved.
 */
class ReadingEventsTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void finishedOrMarkedChaptersAreToldAfterTheyAreSavedAndAPageInTheMiddleIsNot() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      long user = new SqliteUserStore(db).createUser("eve", "hash", "reader", now);
      ReadingEvents progress = new ReadingEvents(new SqliteProgressStore(db));
      List<String> told = new CopyOnWriteArrayList<>();
      progress.listen((userId, series) -> told.add(userId + "/" + series + " read "
          + progress.readChapters(userId, series).size()));

      progress.saveProgress(user, "moon", "chapter-0001", 3, false, now);
      progress.setRead(user, "moon", "chapter-0002", false, now);
      assertThat(told).as("no chapter finished").isEmpty();

      progress.saveProgress(user, "moon", "chapter-0001", 4, true, now);
      progress.setRead(user, "sun", "chapter-0007", true, now);
      progress.markRead(user, "star", Set.of("chapter-0001", "chapter-0002"), now);
      progress.markRead(user, "star", Set.of(), now);

      assertThat(told).containsExactly(user + "/moon read 1", user + "/sun read 1", user + "/star read 2");
    }
  }

  @Test
  void aListenerThatFailsLeavesTheReadingSaved() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      long user = new SqliteUserStore(db).createUser("eve", "hash", "reader", now);
      ReadingEvents progress = new ReadingEvents(new SqliteProgressStore(db));
      progress.listen((userId, series) -> {
        throw new StoreException("the tracker outbox is unwritable", null);
      });

      progress.saveProgress(user, "moon", "chapter-0001", 4, true, now);

      assertThat(progress.readChapters(user, "moon")).containsExactly("chapter-0001");
    }
  }
}
