package io.mangacircus.scraper.queue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Cuts the operator's paged list out of the queue: one walk, copying only the slice, with the counts per state. */
final class JobPages {

  private JobPages() {
  }

  /**
   * The jobs in {@code state} (every state when null) from {@code offset}, at most {@code limit} of them, with the
   * totals: one walk over {@code jobs} (under the queue's lock), copying only the slice (a page of a long queue never
   * copies or serializes the rest).
   */
  static JobQueue.JobPage slice(Iterable<Job> jobs, JobState state, int offset, int limit) {
    List<Job> slice = new ArrayList<>(Math.min(limit, 256));
    Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
    int matching = 0;
    for (Job job : jobs) {
      counts.merge(job.state(), 1, Integer::sum);
      if (state != null && job.state() != state) {
        continue;
      }
      if (matching >= offset && matching - offset < limit) {
        slice.add(job);
      }
      matching++;
    }
    return new JobQueue.JobPage(slice, matching, counts);
  }
}
