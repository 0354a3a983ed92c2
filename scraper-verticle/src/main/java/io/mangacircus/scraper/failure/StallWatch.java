package io.mangacircus.scraper.failure;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The stall rule: an active job is stalled when its checkpoint fingerprint (completed chapters and validated pages)
 * has not moved for the stall window (15 min), or chapter delay + grace (3 min) if that is longer. Paused time does
 * not count (nor does a hold of the source, which the watchdog leaves out of the active jobs), a paused queue is not a
 * stall, and a job whose checkpoint cannot be read is not judged.
 */
public final class StallWatch {

  /** What the watch sees of one active job at a tick. */
  public record Observation(String jobId, OptionalLong fingerprint, Duration chapterDelay) {
  }

  private record Track(long fingerprint, Instant since) {
  }

  private final Duration window;
  private final Duration grace;
  private final InstantSource clock;
  private final Map<String, Track> tracks = new HashMap<>();

  public StallWatch(Duration window, Duration grace, InstantSource clock) {
    this.window = window;
    this.grace = grace;
    this.clock = clock;
  }

  /**
   * One tick of the watchdog.
   *
   * @param active the jobs that are active now (paused or waiting ones are simply absent)
   * @param queuePaused whether downloads are deliberately paused (memory yield, every lane paused)
   * @return the jobs judged stalled at this tick; their tracks restart
   */
  public synchronized List<String> tick(List<Observation> active, boolean queuePaused) {
    Instant now = clock.instant();
    if (queuePaused) {
      tracks.clear();
      return List.of();
    }
    Map<String, Observation> current = new HashMap<>();
    active.forEach(o -> current.put(o.jobId(), o));
    tracks.keySet().retainAll(current.keySet());
    List<String> stalled = new ArrayList<>();
    for (Observation observation : active) {
      if (observation.fingerprint().isEmpty()) {
        continue;
      }
      long fingerprint = observation.fingerprint().getAsLong();
      Track track = tracks.get(observation.jobId());
      if (track == null || track.fingerprint() != fingerprint) {
        tracks.put(observation.jobId(), new Track(fingerprint, now));
        continue;
      }
      Duration limit = max(window, observation.chapterDelay().plus(grace));
      if (!now.isBefore(track.since().plus(limit))) {
        stalled.add(observation.jobId());
        tracks.put(observation.jobId(), new Track(fingerprint, now));
      }
    }
    return stalled;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
