package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.JobProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ProgressBoardTest {

  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-29T10:00:00Z"));
  private final List<JobProgress> published = new ArrayList<>();
  private final ProgressBoard board = new ProgressBoard(published::add, now::get);

  private static JobProgress at(String state, String chapter, int page, int pages, int done) {
    return new JobProgress("j1", "demo", "Circus Nights", state, chapter, chapter == null ? null : chapter.substring(1),
        page, pages, done, 3);
  }

  private void later(long ms) {
    now.set(now.get().plusMillis(ms));
  }

  @Test
  void pagesFetchedQuicklyArePublishedAtMostEveryIntervalButTheFirstAndLastPageOfAChapterAlways() {
    board.update(at("active", "c1", 0, 50, 0));
    for (int page = 1; page <= 50; page++) {
      later(10);
      board.update(at("active", "c1", page, 50, 0));
    }

    // 500 ms of pages: the chapter's start, one page per 250 ms, and its last page
    assertThat(published).extracting(JobProgress::page).containsExactly(0, 25, 50);
    assertThat(board.of("j1")).get().extracting(JobProgress::page).as("the board itself is always exact")
        .isEqualTo(50);
  }

  @Test
  void aNewChapterOrStateIsPublishedAtOnce() {
    board.update(at("active", "c1", 50, 50, 0));
    board.update(at("active", "c2", 0, 20, 1));
    board.update(at("active", "c2", 1, 20, 1));
    board.update(at("paused", "c2", 1, 20, 1));
    board.update(at("done", null, 0, 0, 3));

    assertThat(published).extracting(JobProgress::state, JobProgress::chapterId, JobProgress::page)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("active", "c1", 50),
            org.assertj.core.groups.Tuple.tuple("active", "c2", 0),
            org.assertj.core.groups.Tuple.tuple("paused", "c2", 1),
            org.assertj.core.groups.Tuple.tuple("done", null, 0));
  }

  @Test
  void aSlowSourcesEveryPageIsPublished() {
    for (int page = 1; page <= 5; page++) {
      later(ProgressBoard.PAGE_INTERVAL.toMillis());
      board.update(at("active", "c1", page, 10, 0));
    }

    assertThat(published).extracting(JobProgress::page).containsExactly(1, 2, 3, 4, 5);
    assertThat(Duration.ofMillis(250)).isEqualTo(ProgressBoard.PAGE_INTERVAL);
  }
}
