package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin's series merges in {@code reader.db}: kept across a reopen, replaced, removed, never into itself. */
class SqliteSeriesMergeStoreTest {

  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

  @TempDir
  Path dir;

  @Test
  void mergesAreKeptAcrossAReopenReplacedAndRemoved() throws Exception {
    Path file = dir.resolve("reader.db");
    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      SeriesMergeStore merges = new SqliteSeriesMergeStore(db);
      merges.merge("moon-shelf", "moon", NOW);
      merges.merge("sun-shelf", "moon", NOW);
      merges.merge("sun-shelf", "sun", NOW);
    }
    try (SqliteDatabase db = SqliteDatabase.open(file)) {
      SeriesMergeStore merges = new SqliteSeriesMergeStore(db);
      assertThat(merges.merges()).containsExactly(Map.entry("moon-shelf", "moon"), Map.entry("sun-shelf", "sun"));
      assertThat(merges.unmerge("moon-shelf")).isTrue();
      assertThat(merges.unmerge("moon-shelf")).isFalse();
      assertThat(merges.merges()).containsOnlyKeys("sun-shelf");
      assertThatThrownBy(() -> merges.merge("moon", "moon", NOW)).as("the table refuses a merge into itself")
          .isInstanceOf(StoreException.class);
    }
  }
}
