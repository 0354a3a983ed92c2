package io.mangacircus.scraper.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TitleIndexTest {

  private static Job job(String id, String titleId) {
    Instant now = Instant.parse("2026-11-01T00:00:00Z");
    return new Job(id, "demo", titleId, "Title " + id, JobState.PENDING, true, true, 0, 0, now, now, null, null, null,
        null, List.of(), 0, 0);
  }

  @Test
  void theTitleIndexKeepsEachTitlesJobsInOrderAndForgetsATitleWithNone() {
    TitleIndex index = new TitleIndex();
    Job first = job("j-1", "a");
    Job second = job("j-2", "a");
    Job other = job("j-3", "ab");
    index.add(first);
    index.add(second);
    index.add(other);

    assertThat(index.ids("demo", "a")).containsExactly("j-1", "j-2");
    index.remove(first);
    index.remove(second);
    assertThat(index.ids("demo", "a")).isEmpty();
    assertThat(index.ids("demo", "ab")).containsExactly("j-3");
    assertThat(index.ids("other", "ab")).isEmpty();
  }
}
