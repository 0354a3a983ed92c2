package io.mangacircus.reader.trackers;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tracker outbox's meters: {@code mc.tracker.updates} (Prometheus {@code mc_tracker_updates_total}) by tracker and
 * outcome, and {@code mc.tracker.pending} per configured tracker. Tags are tracker ids and outcome words only.
 */
final class TrackerDeliveryMetrics {

  private final MeterRegistry registry;
  private final Map<String, AtomicInteger> pending = new TreeMap<>();

  /** @param registry null for no meters */
  TrackerDeliveryMetrics(MeterRegistry registry, Collection<String> trackers) {
    this.registry = registry;
    for (String tracker : trackers) {
      AtomicInteger count = new AtomicInteger();
      // The map keeps the value strongly: Micrometer holds a gauge's object weakly.
      pending.put(tracker, count);
      if (registry != null) {
        Gauge.builder("mc.tracker.pending", count, AtomicInteger::get).tag("tracker", tracker)
            .description("Tracker updates waiting in the outbox").register(registry);
      }
    }
  }

  /** One update's outcome: delivered, in_step, pull_offered, rate_limited, unavailable, sign_in_again, refused. */
  void count(String tracker, String outcome) {
    if (registry != null) {
      Counter.builder("mc.tracker.updates").tag("tracker", tracker).tag("outcome", outcome)
          .description("Tracker updates tried, by outcome").register(registry).increment();
    }
  }

  /** The pending counts as the outbox holds them now (a tracker missing from the map has none). */
  void pending(Map<String, Integer> byTracker) {
    pending.forEach((tracker, count) -> count.set(byTracker.getOrDefault(tracker, 0)));
  }
}
