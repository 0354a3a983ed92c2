package io.mangacircus.reader.admin;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.accounts.ReaderDatabase;
import io.mangacircus.reader.http.ApiReplies;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;

/**
 * The console's notification settings (docs/notifications.md), admin only: {@code GET /api/admin/notifications} shows
 * what is configured with every secret as {@code "set"}, {@code POST /api/admin/notifications/test} sends one test
 * message to each destination and one heartbeat and shows the answers. Both ask this process's notifier, which exists
 * only when something is configured.
 */
public final class NotificationRoutes {

  /** How long the notifier's view may take. */
  static final Duration GET_TIMEOUT = Duration.ofSeconds(2);

  /** How long a test may take: every destination's answer, each bounded by the notifier's request timeout. */
  static final Duration TEST_TIMEOUT = Duration.ofSeconds(30);

  private final Vertx vertx;

  public NotificationRoutes(Vertx vertx) {
    this.vertx = vertx;
  }

  /** The routes under {@code /api/admin/notifications}: the settings view and the test button. */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.get("/")).handler(this::handleGet);
    AccessGuard.adminOnly(router.post("/test")).handler(this::handleTest);
    return router;
  }

  private void handleGet(RoutingContext ctx) {
    vertx.eventBus().<JsonObject>request(Addresses.LAUNCHER_NOTIFICATIONS_GET, new JsonObject().put("v", 1),
            new DeliveryOptions().setLocalOnly(true).setSendTimeout(GET_TIMEOUT.toMillis()))
        .onSuccess(reply -> ctx.json(reply.body().copy().put("configured", true)))
        .onFailure(t -> {
          if (t instanceof ReplyException reply && reply.failureType() == ReplyFailure.NO_HANDLERS) {
            ctx.json(new JsonObject().put("v", 1).put("configured", false).put("publicUrl", "")
                .put("destinations", new JsonArray()).put("heartbeat", new JsonObject().put("url", "none")));
          } else {
            ApiReplies.error(ctx, 503, "notifier_unavailable", "the notifier did not answer: " + t.getMessage());
          }
        });
  }

  private void handleTest(RoutingContext ctx) {
    ReaderDatabase.Session session = ctx.get(AccessGuard.SESSION);
    String by = session == null ? "admin token" : "admin " + session.username();
    vertx.eventBus().<JsonObject>request(Addresses.LAUNCHER_NOTIFICATIONS_TEST, new JsonObject().put("v", 1)
            .put("requestedBy", by), new DeliveryOptions().setLocalOnly(true).setSendTimeout(TEST_TIMEOUT.toMillis()))
        .onSuccess(reply -> ctx.json(reply.body()))
        .onFailure(t -> {
          if (t instanceof ReplyException reply && reply.failureType() == ReplyFailure.NO_HANDLERS) {
            ApiReplies.error(ctx, 409, "nothing_configured", "no notification destination and no heartbeat URL is "
                + "configured (notifications in the config file; docs/notifications.md)");
          } else {
            ApiReplies.error(ctx, 503, "notifier_unavailable", "the notifier did not answer: " + t.getMessage());
          }
        });
  }
}
