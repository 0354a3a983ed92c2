package io.mangacircus.scraper.lane;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.queue.LaneSettings;

/** A lane's effective delays: the run-time setting when the operator set one, else the configured default. */
public record Pacing(long pageDelayMs, long chapterDelayMs) {

  public static Pacing of(SourceConfig configured, LaneSettings runtime) {
    return new Pacing(runtime.pageDelayMs() != null ? runtime.pageDelayMs() : configured.pageDelayMs(),
        runtime.chapterDelayMs() != null ? runtime.chapterDelayMs() : configured.chapterDelayMs());
  }
}
