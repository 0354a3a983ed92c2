package io.mangacircus.launcher.notify;

import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat: a GET to the configured URL at its interval, the first at once, and only while this process would
 * answer 200 on {@code /health/ready}, so a silent heartbeat tells the monitor something is wrong.
 */
final class Heartbeat {

  private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);

  private final Vertx vertx;
  private final RequestSender sender;
  private final Supplier<Future<Boolean>> ready;
  private final NotificationMeters meters;
  private long timer = -1;
  private Boolean lastReady;

  /** @param ready whether {@code /health/ready} of this process would answer 200 now */
  Heartbeat(Vertx vertx, RequestSender sender, Supplier<Future<Boolean>> ready, NotificationMeters meters) {
    this.vertx = vertx;
    this.sender = sender;
    this.ready = ready;
    this.meters = meters;
  }

  /** (Re)starts the timer for the heartbeat that applies now; the first ping goes out at once. */
  void restart(NotificationsConfig.Heartbeat heartbeat) {
    stop();
    if (heartbeat.enabled()) {
      timer = vertx.setPeriodic(0, Duration.ofSeconds(heartbeat.intervalSeconds()).toMillis(),
          id -> beat(heartbeat.url()));
    }
  }

  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  private void beat(String url) {
    ready.get().otherwise(false).onSuccess(up -> {
      if (!up) {
        if (!Boolean.FALSE.equals(lastReady)) {
          LOG.warn("[NOTIFY] heartbeat paused: /health/ready would not answer 200");
        }
        lastReady = false;
        return;
      }
      if (Boolean.FALSE.equals(lastReady)) {
        LOG.info("[NOTIFY] heartbeat resumed: ready again");
      }
      lastReady = true;
      sender.send(new OutgoingRequest("GET", url, Map.of(), null))
          .onSuccess(r -> meters.count("mc.notifications.heartbeats", "heartbeat"))
          .onFailure(t -> LOG.warn("[NOTIFY] heartbeat failed: {}", t.getMessage()));
    });
  }
}
