package io.mangacircus.scraper.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobPagesTest {

  private static Job job(String id, String titleId, JobState state) {
    Instant now = Instant.parse("2026-11-01T00:00:00Z");
    return new Job(id, "demo", titleId, "Title " + id, state, true, true, 0, 0, now, now, null, null, null, null,
        List.of(), 0, 0);
  }

  private static final List<Job> QUEUE = List.of(job("j-1", "a", JobState.PENDING), job("j-2", "b", JobState.DONE),
      job("j-3", "c", JobState.PENDING), job("j-4", "d", JobState.PENDING), job("j-5", "e", JobState.PAUSED));

  @Test
  void aSliceOfOneStateCountsEveryStateAndTheMatchingTotal() {
    JobQueue.JobPage page = JobPages.slice(QUEUE, JobState.PENDING, 1, 1);

    assertThat(page.jobs()).extracting(Job::id).containsExactly("j-3");
    assertThat(page.total()).isEqualTo(3);
    assertThat(page.counts()).containsEntry(JobState.PENDING, 3).containsEntry(JobState.DONE, 1)
        .containsEntry(JobState.PAUSED, 1).hasSize(3);
  }

  @Test
  void noStateSlicesEveryJobInTheQueuesOrderAndAnOffsetPastTheEndIsEmpty() {
    assertThat(JobPages.slice(QUEUE, null, 3, 10).jobs()).extracting(Job::id).containsExactly("j-4", "j-5");
    assertThat(JobPages.slice(QUEUE, null, 9, 10).jobs()).isEmpty();
    assertThat(JobPages.slice(QUEUE, null, 9, 10).total()).isEqualTo(5);
  }
}
