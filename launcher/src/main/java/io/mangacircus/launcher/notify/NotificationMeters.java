package io.mangacircus.launcher.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** The notifier's meters (sent, failed, heartbeats, dropped, waiting); without a registry it counts nothing. */
final class NotificationMeters {

  private final MeterRegistry registry;
  private Counter dropped;

  /** @param registry where the meters go, or null */
  NotificationMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Registers the dropped counter and the gauge of deliveries waiting in {@code outbox}. */
  void bind(Outbox outbox) {
    if (registry == null) {
      return;
    }
    dropped = Counter.builder("mc.notifications.dropped")
        .description("Deliveries dropped because the outbox was full (oldest first)").register(registry);
    Gauge.builder("mc.notifications.waiting", outbox, Outbox::size)
        .description("Deliveries waiting in the outbox").register(registry);
  }

  /** One more of the counter {@code name} for {@code destination}. */
  void count(String name, String destination) {
    if (registry != null) {
      Counter.builder(name).tag("destination", destination).register(registry).increment();
    }
  }

  /** Deliveries dropped because the outbox was full. */
  void dropped(int count) {
    if (dropped != null) {
      dropped.increment(count);
    }
  }
}
