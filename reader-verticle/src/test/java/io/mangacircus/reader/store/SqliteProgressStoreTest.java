package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading positions and read marks in {@code reader.db}. */
class SqliteProgressStoreTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void savingTheLastPageMarksTheChapterReadInTheSameStep() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      ProgressStore progress = new SqliteProgressStore(db);
      long id = new SqliteUserStore(db).createUser("eve", "hash", "reader", now);
      progress.saveProgress(id, "s", "chapter-0001", 4, false, now);
      assertThat(progress.readChapters(id, "s")).isEmpty();

      progress.saveProgress(id, "s", "chapter-0001", 5, true, now.plusSeconds(1));

      assertThat(progress.readChapters(id, "s")).containsExactly("chapter-0001");
      assertThat(progress.progress(id)).singleElement().satisfies(p -> assertThat(p.page()).isEqualTo(5));
    }
  }
}
