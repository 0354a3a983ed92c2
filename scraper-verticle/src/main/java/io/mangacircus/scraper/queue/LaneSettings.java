package io.mangacircus.scraper.queue;

/**
 * Run-time settings of one source lane, persisted in {@code queue.json} so they survive a restart.
 *
 * @param paused whether the operator (or a failure) paused the lane
 * @param pauseReason why, or null
 * @param pageDelayMs delay between page fetches set at run time, or null for the configured default
 * @param chapterDelayMs delay between chapters set at run time, or null for the configured default
 */
public record LaneSettings(boolean paused, String pauseReason, Long pageDelayMs, Long chapterDelayMs) {

  /** A lane nobody has touched. */
  public static LaneSettings defaults() {
    return new LaneSettings(false, null, null, null);
  }

  public LaneSettings paused(String why) {
    return new LaneSettings(true, why, pageDelayMs, chapterDelayMs);
  }

  public LaneSettings resumed() {
    return new LaneSettings(false, null, pageDelayMs, chapterDelayMs);
  }

  public LaneSettings withPacing(Long pageDelay, Long chapterDelay) {
    return new LaneSettings(paused, pauseReason, pageDelay, chapterDelay);
  }
}
