package io.mangacircus.scraper.search;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/**
 * The lane's pacing for search, preview and cover requests: per source, a request leaves at least the lane's page
 * delay after the previous one of these left (a burst of typing becomes a queue, not a burst of requests).
 */
public final class SearchPacing {

  private final InstantSource clock;
  private final Map<String, Instant> nextSlot = new HashMap<>();

  public SearchPacing(InstantSource clock) {
    this.clock = clock;
  }

  /** Takes the source's next slot: how long to wait before sending; the slot after it is {@code delay} later. */
  public synchronized Duration reserve(String source, Duration delay) {
    Instant now = clock.instant();
    Instant slot = nextSlot.getOrDefault(source, now);
    if (slot.isBefore(now)) {
      slot = now;
    }
    nextSlot.put(source, slot.plus(delay));
    return Duration.between(now, slot);
  }
}
