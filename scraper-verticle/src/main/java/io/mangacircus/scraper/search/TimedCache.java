package io.mangacircus.scraper.search;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Answers kept for a while (by the injected clock) and at most {@code capacity} of them, the least used dropped first. */
public final class TimedCache<K, V> {

  private record Entry<V>(V value, Instant until) {
  }

  private final InstantSource clock;
  private final Duration ttl;
  private final Map<K, Entry<V>> entries;

  public TimedCache(InstantSource clock, Duration ttl, int capacity) {
    this.clock = clock;
    this.ttl = ttl;
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, Entry<V>> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The value kept for {@code key}, unless it expired. */
  public synchronized Optional<V> get(K key) {
    Entry<V> entry = entries.get(key);
    if (entry == null) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(entry.until())) {
      entries.remove(key);
      return Optional.empty();
    }
    return Optional.of(entry.value());
  }

  /** Keeps {@code value} for the cache's time to live from now. */
  public synchronized void put(K key, V value) {
    entries.put(key, new Entry<>(value, clock.instant().plus(ttl)));
  }
}
