package io.mangacircus.reader.trackers;

import java.util.Objects;

/**
 * A tracker list entry as we last saw it: the whole chapters read there, its status, and the series' chapter count
 * when the tracker knows it (null when it does not; trackers answer 0 for an ongoing series, taken as unknown).
 */
public record TrackerEntry(int progress, TrackerStatus status, Integer totalChapters) {

  public TrackerEntry {
    if (progress < 0) {
      throw new IllegalArgumentException("a tracker's progress is a chapter count, at least 0: " + progress);
    }
    Objects.requireNonNull(status, "status");
    totalChapters = totalChapters == null || totalChapters <= 0 ? null : totalChapters;
  }

  /** A series the user has not yet put on that tracker's list. */
  public static TrackerEntry notListed(Integer totalChapters) {
    return new TrackerEntry(0, TrackerStatus.PLAN_TO_READ, totalChapters);
  }

  /** Whether a progress reaches the series' end, which only a known chapter count can say. */
  public boolean finishedAt(int chapters) {
    return totalChapters != null && chapters >= totalChapters;
  }
}
