package io.mangacircus.launcher.notify;

import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves notifications through the outbox: queues them, sends the due deliveries, records each answer, and writes
 * {@code outbox.json} after every change, so a delivery is forgotten only once its destination answered 2xx.
 */
final class Deliveries {

  private static final Logger LOG = LoggerFactory.getLogger(Deliveries.class);

  private final Vertx vertx;
  private final Dispatcher dispatcher;
  private final RequestSender sender;
  private final OutboxFile file;
  private final NotificationMeters meters;
  private final int outboxMax;
  private final int maxAttempts;
  private Future<Void> writing = Future.succeededFuture();

  /** @param config the config file's section: its outbox cap and retry attempts apply */
  Deliveries(Vertx vertx, Dispatcher dispatcher, RequestSender sender, OutboxFile file, NotificationMeters meters,
      NotificationsConfig config) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.sender = sender;
    this.file = file;
    this.meters = meters;
    this.outboxMax = config.outboxMax();
    this.maxAttempts = config.retry().maxAttempts();
  }

  /** Queues one notification for its destinations and saves the outbox. */
  void accept(Notification notification) {
    dropped(dispatcher.accept(notification));
    persist();
  }

  /** Queues a reader's own alert for its one target (saved by the next {@link #persist}). */
  void acceptFor(Notification notification, NotificationsConfig.Destination target) {
    dropped(dispatcher.acceptFor(notification, target));
  }

  /** Sends every delivery that is due, records the answers and saves the outbox. */
  void sendDue() {
    Dispatcher.Tick tick = dispatcher.tick();
    dropped(tick.dropped());
    tick.gone().forEach(d -> LOG.warn("[NOTIFY] gave up a {} message for destination {}: it is no longer configured",
        d.notification().kind(), d.destination()));
    for (Delivery delivery : tick.send()) {
      OutgoingRequest request = dispatcher.destination(delivery).orElseThrow().request(delivery.notification());
      // A reader's own target is checked again at every send: its name may resolve elsewhere by now.
      (delivery.target() == null ? sender.send(request) : sender.sendReaderAlert(request)).onComplete(ar -> {
        if (ar.succeeded()) {
          dispatcher.succeeded(delivery);
          meters.count("mc.notifications.sent", delivery.destination());
          LOG.info("[NOTIFY] sent {} message to {} ({})", delivery.notification().kind(), delivery.destination(),
              delivery.notification().key());
        } else {
          Dispatcher.Failure failure = dispatcher.failed(delivery);
          if (failure == Dispatcher.Failure.GIVEN_UP) {
            meters.count("mc.notifications.failed", delivery.destination());
            LOG.error("[NOTIFY] gave up a {} message for {} after {} attempts: {}", delivery.notification().kind(),
                delivery.destination(), delivery.attempts() + 1, ar.cause().getMessage());
          } else {
            LOG.warn("[NOTIFY] delivery to {} failed (attempt {} of {}): {}; it stays in the outbox",
                delivery.destination(), delivery.attempts() + 1, maxAttempts, ar.cause().getMessage());
          }
        }
        persist();
      });
    }
    persist();
  }

  /** Deliveries the outbox cap pushed out: counted and logged. */
  void dropped(List<Delivery> dropped) {
    if (dropped.isEmpty()) {
      return;
    }
    meters.dropped(dropped.size());
    LOG.warn("[NOTIFY] outbox full (notifications.outboxMax {}): dropped the oldest {} deliver{} ({})",
        outboxMax, dropped.size(), dropped.size() == 1 ? "y" : "ies",
        dropped.stream().map(d -> d.notification().kind() + " for " + d.destination()).toList());
  }

  /** Writes the outbox when it changed; writes are chained, so the file always ends with the last state. */
  void persist() {
    dispatcher.takeChanges().ifPresent(snapshot -> writing = writing.transform(v -> vertx.executeBlocking(() -> {
      file.save(snapshot);
      return null;
    })).onFailure(t -> LOG.error("[NOTIFY] cannot save {}: {}", file.path(), t.toString())).mapEmpty());
  }

  /** Completes once the last write asked for is done (failed or not). */
  Future<Void> written() {
    return writing.otherwiseEmpty();
  }
}
