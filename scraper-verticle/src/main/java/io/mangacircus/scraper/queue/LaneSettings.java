package io.mangacircus.scraper.queue;

import java.time.Instant;

/**
 * Run-time settings of one source lane, persisted in {@code queue.json} so they survive a restart.
 *
 * @param paused whether the operator (or a failure) paused the lane
 * @param pauseReason why, or null
 * @param pageDelayMs delay between page fetches set at run time, or null for the configured default
 * @param chapterDelayMs delay between chapters set at run time, or null for the configured default
 * @param holdUntil no request to the source before this instant (a wait the source named or our budget under its
 *     limits), or null; an operator's resume does not lift it, a restart keeps it
 * @param holdReason why, for the lane's status, or null
 */
public record LaneSettings(boolean paused, String pauseReason, Long pageDelayMs, Long chapterDelayMs,
    Instant holdUntil, String holdReason) {

  /** A lane nobody has touched. */
  public static LaneSettings defaults() {
    return new LaneSettings(false, null, null, null, null, null);
  }

  public LaneSettings paused(String why) {
    return new LaneSettings(true, why, pageDelayMs, chapterDelayMs, holdUntil, holdReason);
  }

  public LaneSettings resumed() {
    return new LaneSettings(false, null, pageDelayMs, chapterDelayMs, holdUntil, holdReason);
  }

  public LaneSettings withPacing(Long pageDelay, Long chapterDelay) {
    return new LaneSettings(paused, pauseReason, pageDelay, chapterDelay, holdUntil, holdReason);
  }

  public LaneSettings held(Instant until, String why) {
    return new LaneSettings(paused, pauseReason, pageDelayMs, chapterDelayMs, until, why);
  }

  /** Whether a hold keeps the lane from sending at {@code now}. */
  public boolean holding(Instant now) {
    return holdUntil != null && holdUntil.isAfter(now);
  }
}
