package io.mangacircus.launcher.notify;

import io.mangacircus.launcher.config.NotificationsConfig;
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
 * @param target where it goes when that is not one of the operator's destinations (a reader's own new-chapter
 *     alert, named {@code reader:<user>}), else null
 */
public record Delivery(String id, String destination, Notification notification, int attempts, Instant notBefore,
    Instant queuedAt, NotificationsConfig.Destination target) {

  /** A delivery to one of the operator's destinations. */
  public Delivery(String id, String destination, Notification notification, int attempts, Instant notBefore,
      Instant queuedAt) {
    this(id, destination, notification, attempts, notBefore, queuedAt, null);
  }

  /** The same delivery after a failed attempt, to be tried again at {@code next}. */
  public Delivery failed(Instant next) {
    return new Delivery(id, destination, notification, attempts + 1, next, queuedAt, target);
  }

  /** The same delivery held back until {@code next} without counting an attempt (rate limit). */
  public Delivery deferred(Instant next) {
    return new Delivery(id, destination, notification, attempts, next, queuedAt, target);
  }
}
