package io.mangacircus.reader.trackers;

import java.time.Instant;
import java.util.Objects;

/** What to do about one (user, tracker, series) now, as {@link TrackerSyncRules} decides it. */
public sealed interface SyncDecision {

  /** Send the tracker this progress and status; scores and dates are never part of it. */
  record Push(int progress, TrackerStatus status) implements SyncDecision {
    public Push {
      if (progress < 0) {
        throw new IllegalArgumentException("progress is a chapter count, at least 0: " + progress);
      }
      Objects.requireNonNull(status, "status");
    }
  }

  /**
   * The tracker is ahead (the user read elsewhere): leave it, and offer to mark our chapters read up to its progress.
   */
  record Pull(int trackerProgress) implements SyncDecision {
  }

  /** A push is due but one went out less than a minute ago: decide again at {@code until}, with the state then. */
  record Wait(Instant until) implements SyncDecision {
    public Wait {
      Objects.requireNonNull(until, "until");
    }
  }

  /** Tracker and reader are in step, or there is nothing of ours to tell. */
  record Nothing() implements SyncDecision {
  }
}
