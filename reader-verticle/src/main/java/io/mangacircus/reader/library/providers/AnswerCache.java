package io.mangacircus.reader.library.providers;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A provider's answers by request, in memory: at most {@code maxEntries}, each for {@code ttl}, the least used first out. */
public final class AnswerCache<V> {

  private record Kept<V>(V value, Instant expires) {
  }

  private final InstantSource clock;
  private final Duration ttl;
  private final LinkedHashMap<String, Kept<V>> entries;

  public AnswerCache(InstantSource clock, Duration ttl, int maxEntries) {
    this.clock = clock;
    this.ttl = ttl;
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Kept<V>> eldest) {
        return size() > maxEntries;
      }
    };
  }

  /** The answer kept for {@code key}, unless there is none or it has expired. */
  public synchronized Optional<V> get(String key) {
    Kept<V> kept = entries.get(key);
    if (kept == null) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(kept.expires())) {
      entries.remove(key);
      return Optional.empty();
    }
    return Optional.of(kept.value());
  }

  public synchronized void put(String key, V value) {
    entries.put(key, new Kept<>(value, clock.instant().plus(ttl)));
  }

  public synchronized int size() {
    return entries.size();
  }
}
