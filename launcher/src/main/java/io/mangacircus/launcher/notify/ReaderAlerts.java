package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Readers' own new-chapter alerts: the reader of this process names the users subscribed to some of a pass's series,
 * each with only their own series; each gets one message per series, queued in the outbox like the operator's.
 */
final class ReaderAlerts {

  private static final Logger LOG = LoggerFactory.getLogger(ReaderAlerts.class);

  /** How long the reader may take to name the subscribers of a pass's series. */
  static final Duration READER_TIMEOUT = Duration.ofSeconds(10);

  /** A reader's alerts per rolling hour at most. */
  static final int READER_MAX_PER_HOUR = 30;

  private final Vertx vertx;
  private final EventMessages messages;
  private final InstantSource clock;
  private final Deliveries deliveries;
  private final Runnable queued;

  /** @param queued run after alerts were queued (and the outbox saved), to send them */
  ReaderAlerts(Vertx vertx, EventMessages messages, InstantSource clock, Deliveries deliveries, Runnable queued) {
    this.vertx = vertx;
    this.messages = messages;
    this.clock = clock;
    this.deliveries = deliveries;
    this.queued = queued;
  }

  /** Asks the reader who subscribed to these series and queues their alerts. */
  void send(List<DiscoveryTally.NewChapters> perSeries) {
    JsonArray ids = new JsonArray(perSeries.stream().map(DiscoveryTally.NewChapters::seriesId).toList());
    vertx.eventBus().<JsonObject>request(Addresses.READER_ALERTS_SUBSCRIBERS, new JsonObject().put("v", 1)
            .put("series", ids), new DeliveryOptions().setLocalOnly(true).setSendTimeout(READER_TIMEOUT.toMillis()))
        .onFailure(t -> LOG.warn("[NOTIFY] readers' new-chapter alerts not sent: the reader did not name the "
            + "subscribers ({})", t.getMessage()))
        .onSuccess(reply -> {
          int count = 0;
          for (Object entry : reply.body().getJsonArray("subscribers", new JsonArray())) {
            JsonObject subscriber = (JsonObject) entry;
            JsonObject t = subscriber.getJsonObject("target");
            String user = subscriber.getString("user");
            NotificationsConfig.Destination target = new NotificationsConfig.Destination("reader:" + user,
                t.getString("type"), t.getString("url"), t.getString("topic"), t.getString("token"),
                java.util.Set.of("new-chapters"), READER_MAX_PER_HOUR);
            for (Object id : subscriber.getJsonArray("series", new JsonArray())) {
              for (DiscoveryTally.NewChapters series : perSeries) {
                if (series.seriesId().equals(id)) {
                  deliveries.acceptFor(DiscoveryTally.readerMessage(user, series,
                      messages.seriesLink(series.seriesId()), clock.instant()), target);
                  count++;
                }
              }
            }
          }
          if (count > 0) {
            LOG.info("[NOTIFY] {} new-chapter alert(s) queued for {} reader(s)", count,
                reply.body().getJsonArray("subscribers").size());
            deliveries.persist();
            queued.run();
          }
        });
  }

  /**
   * A notice to one reader about their account (a tracker sign-in to renew), queued for their own target; a message
   * that is not one is dropped and logged without its content (it may hold the reader's token).
   */
  void notice(io.vertx.core.eventbus.Message<Object> message) {
    if (!(message.body() instanceof JsonObject body) || !(body.getValue("target") instanceof JsonObject t)
        || !(body.getValue("user") instanceof String user) || !(body.getValue("title") instanceof String title)
        || !(body.getValue("text") instanceof String text) || !(body.getValue("key") instanceof String key)
        || !(t.getValue("type") instanceof String) || !(t.getValue("url") instanceof String)) {
      LOG.warn("[NOTIFY] a reader notice was dropped: it is not {v:1, user, target, key, title, text}");
      return;
    }
    NotificationsConfig.Destination target = new NotificationsConfig.Destination("reader:" + user,
        t.getString("type"), t.getString("url"), t.getString("topic", ""), t.getString("token", ""),
        java.util.Set.of("account"), READER_MAX_PER_HOUR);
    String click = body.getValue("click") instanceof String link ? link : "";
    deliveries.acceptFor(new Notification("account", "account:" + user + ":" + key, title, text, 4,
        List.of("warning"), click, clock.instant(), 0), target);
    LOG.info("[NOTIFY] an account notice queued for reader '{}'", user);
    deliveries.persist();
    queued.run();
  }
}
