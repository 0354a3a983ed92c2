package io.mangacircus.launcher.notify;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The deliveries waiting to go out, bounded: adding beyond the bound drops the oldest, which the caller counts. Plain
 * state, no I/O ({@link OutboxFile} persists it).
 */
public final class Outbox {

  private final int max;
  private final Map<String, Delivery> entries = new LinkedHashMap<>();

  public Outbox(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("an outbox holds at least one delivery");
    }
    this.max = max;
  }

  /** Adds a delivery; returns the ones dropped to stay within the bound (oldest first), usually none. */
  public List<Delivery> add(Delivery delivery) {
    entries.put(delivery.id(), delivery);
    List<Delivery> dropped = new ArrayList<>();
    while (entries.size() > max) {
      Delivery oldest = entries.values().stream().min(Comparator.comparing(Delivery::queuedAt)).orElseThrow();
      entries.remove(oldest.id());
      dropped.add(oldest);
    }
    return dropped;
  }

  /** Replaces a delivery still in the outbox (after a failed or deferred attempt); false when it is gone. */
  public boolean update(Delivery delivery) {
    return entries.replace(delivery.id(), delivery) != null;
  }

  /** Removes a delivery (sent, or given up); false when it was not there. */
  public boolean remove(String id) {
    return entries.remove(id) != null;
  }

  /** The deliveries whose time has come, oldest first. */
  public List<Delivery> due(Instant now) {
    return entries.values().stream().filter(d -> !d.notBefore().isAfter(now))
        .sorted(Comparator.comparing(Delivery::queuedAt)).toList();
  }

  /** When the next delivery falls due, or null when the outbox is empty. */
  public Instant nextDue() {
    return entries.values().stream().map(Delivery::notBefore).min(Comparator.naturalOrder()).orElse(null);
  }

  /** Every delivery, oldest first. */
  public List<Delivery> entries() {
    return entries.values().stream().sorted(Comparator.comparing(Delivery::queuedAt)).toList();
  }

  public int size() {
    return entries.size();
  }
}
