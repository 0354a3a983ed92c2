package io.mangacircus.launcher.notify;

import io.mangacircus.launcher.config.NotificationsConfig;
import io.mangacircus.support.supervision.Backoff;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The delivery decisions, without I/O: which destinations get a notification (after dedup), which deliveries go out
 * now (due, a rate-limit slot free, not already in flight), and what a failure means (retry after backoff, or give
 * up after the last attempt). The outbox it keeps is what must be persisted.
 */
public final class Dispatcher {

  /** What became of a failed attempt. */
  public enum Failure { RETRY, GIVEN_UP, GONE }

  private final Map<String, Destination> destinations = new LinkedHashMap<>();
  private final Map<String, RateLimit> limits = new LinkedHashMap<>();
  private final Map<String, Integer> rates = new LinkedHashMap<>();
  private final Map<String, RateLimit> directLimits = new LinkedHashMap<>();
  private final Outbox outbox;
  private final Deduplicator dedup;
  private final Backoff backoff;
  private final int maxAttempts;
  private final InstantSource clock;
  private final Set<String> inFlight = new HashSet<>();
  private long dropped;
  private boolean dirty;

  /**
   * @param rates each destination's messages per rolling hour, by name
   */
  public Dispatcher(List<Destination> destinations, Map<String, Integer> rates, Outbox outbox, Deduplicator dedup,
      Backoff backoff, int maxAttempts, InstantSource clock) {
    this.outbox = outbox;
    this.dedup = dedup;
    this.backoff = backoff;
    this.maxAttempts = maxAttempts;
    this.clock = clock;
    replaceDestinations(destinations, rates);
  }

  /**
   * Sends to these destinations from now on (the Settings page changed them): waiting deliveries of a name still
   * present go to its new settings, those of a removed one are given up at the next {@link #tick()}; a destination
   * whose rate stayed keeps the slots it used this hour.
   */
  public void replaceDestinations(List<Destination> destinations, Map<String, Integer> rates) {
    Map<String, RateLimit> before = new LinkedHashMap<>(limits);
    Map<String, Integer> beforeRates = new LinkedHashMap<>(this.rates);
    this.destinations.clear();
    limits.clear();
    this.rates.clear();
    destinations.forEach(d -> {
      int rate = rates.getOrDefault(d.name(), 30);
      this.destinations.put(d.name(), d);
      this.rates.put(d.name(), rate);
      limits.put(d.name(), before.containsKey(d.name()) && beforeRates.get(d.name()) == rate ? before.get(d.name())
          : new RateLimit(rate, Duration.ofHours(1), clock));
    });
  }

  /**
   * Queues {@code notification} for every destination that wants its kind, unless it repeats a key within the dedup
   * window ({@code test} messages are never deduplicated). Returns the deliveries dropped to keep the outbox bounded.
   */
  public List<Delivery> accept(Notification notification) {
    if (!"test".equals(notification.kind()) && !dedup.offer(notification)) {
      return List.of();
    }
    return enqueue(notification);
  }

  private List<Delivery> enqueue(Notification notification) {
    List<Delivery> droppedNow = new ArrayList<>();
    Instant now = clock.instant();
    for (Destination destination : destinations.values()) {
      if (!destination.wants(notification.kind())) {
        continue;
      }
      dirty = true;
      droppedNow.addAll(outbox.add(new Delivery(UUID.randomUUID().toString(), destination.name(), notification, 0,
          now, now)));
    }
    droppedNow.forEach(d -> inFlight.remove(d.id()));
    dropped += droppedNow.size();
    return droppedNow;
  }

  /**
   * Queues {@code notification} for one place that is not an operator's destination (a reader's own alert), without
   * dedup; it keeps its own rate limit ({@code target.maxPerHour()}) by name. Returns the deliveries dropped.
   */
  public List<Delivery> acceptFor(Notification notification, NotificationsConfig.Destination target) {
    Instant now = clock.instant();
    dirty = true;
    List<Delivery> droppedNow = outbox.add(new Delivery(UUID.randomUUID().toString(), target.name(), notification, 0,
        now, now, target));
    droppedNow.forEach(d -> inFlight.remove(d.id()));
    dropped += droppedNow.size();
    return droppedNow;
  }

  /**
   * What to send now: the summaries of ended dedup windows are queued first; then each due delivery that is not in
   * flight takes a slot of its destination's rate limit, or waits for the next free slot. Deliveries for a destination
   * no longer configured are given up (returned in {@code gone}).
   */
  public Tick tick() {
    List<Delivery> droppedNow = new ArrayList<>();
    dedup.closeEnded().forEach(summary -> droppedNow.addAll(enqueue(summary)));
    List<Delivery> send = new ArrayList<>();
    List<Delivery> gone = new ArrayList<>();
    for (Delivery delivery : outbox.due(clock.instant())) {
      if (inFlight.contains(delivery.id())) {
        continue;
      }
      RateLimit limit = delivery.target() == null ? limits.get(delivery.destination())
          : directLimits.computeIfAbsent(delivery.destination(), name -> new RateLimit(delivery.target().maxPerHour(),
              Duration.ofHours(1), clock));
      if (limit == null) {
        outbox.remove(delivery.id());
        dirty = true;
        gone.add(delivery);
      } else if (limit.tryAcquire()) {
        inFlight.add(delivery.id());
        send.add(delivery);
      } else {
        outbox.update(delivery.deferred(limit.nextFree()));
        dirty = true;
      }
    }
    return new Tick(send, droppedNow, gone);
  }

  /** The outcome of one {@link #tick()}. */
  public record Tick(List<Delivery> send, List<Delivery> dropped, List<Delivery> gone) {
  }

  /** The destination a delivery goes to, if still configured. */
  public Optional<Destination> destination(Delivery delivery) {
    if (delivery.target() != null) {
      return Optional.of(Destination.of(delivery.target()));
    }
    return Optional.ofNullable(destinations.get(delivery.destination()));
  }

  /** The delivery arrived: it leaves the outbox. */
  public void succeeded(Delivery delivery) {
    inFlight.remove(delivery.id());
    dirty |= outbox.remove(delivery.id());
  }

  /** The attempt failed: retried after backoff, or given up after the last attempt. */
  public Failure failed(Delivery delivery) {
    inFlight.remove(delivery.id());
    Delivery after = delivery.failed(clock.instant().plus(backoff.delayFor(delivery.attempts() + 1)));
    if (after.attempts() >= maxAttempts) {
      dirty |= outbox.remove(delivery.id());
      return Failure.GIVEN_UP;
    }
    if (!outbox.update(after)) {
      return Failure.GONE;
    }
    dirty = true;
    return Failure.RETRY;
  }

  /** The outbox's deliveries if they changed since the last call (to persist), else empty. */
  public Optional<List<Delivery>> takeChanges() {
    if (!dirty) {
      return Optional.empty();
    }
    dirty = false;
    return Optional.of(outbox.entries());
  }

  /** Deliveries dropped so far to keep the outbox bounded. */
  public long dropped() {
    return dropped;
  }

  /** Deliveries waiting. */
  public int waiting() {
    return outbox.size();
  }
}
