package io.mangacircus.launcher.notify;

import java.time.Instant;

/**
 * One notification waiting for one destination in the outbox.
 *
 * @param id unique within the outbox
 * @param destination the destination's name
 * @param notification what to send
 * @param attempts failed attempts so far
 * @param notBefore the earliest time of the next attempt (backoff or rate limit)
 * @param queuedAt when it entered the outbox (the oldest is dropped first)
 */
public record Delivery(String id, String destination, Notification notification, int attempts, Instant notBefore,
    Instant queuedAt) {

  /** The same delivery after a failed attempt, to be tried again at {@code next}. */
  public Delivery failed(Instant next) {
    return new Delivery(id, destination, notification, attempts + 1, next, queuedAt);
  }

  /** The same delivery held back until {@code next} without counting an attempt (rate limit). */
  public Delivery deferred(Instant next) {
    return new Delivery(id, destination, notification, attempts, next, queuedAt);
  }
}
