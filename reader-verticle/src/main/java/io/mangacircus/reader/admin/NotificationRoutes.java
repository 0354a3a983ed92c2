package io.mangacircus.reader.admin;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Optional;

/**
 * The console's notification settings (docs/notifications.md), admin only: {@code GET /api/admin/notifications} shows
 * what is configured with every secret as {@code "set"}; {@code PUT}/{@code DELETE .../destinations/:name} and
 * {@code .../heartbeat} add, edit and remove what the Settings page saves; {@code POST .../test} sends one test
 * message to each destination and one heartbeat and shows the answers. All ask this process's notifier.
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
    AccessGuard.adminOnly(router.put("/destinations/:name")).handler(ctx -> change(ctx, "put-destination", true));
    AccessGuard.adminOnly(router.delete("/destinations/:name")).handler(ctx -> change(ctx, "remove-destination",
        false));
    AccessGuard.adminOnly(router.put("/heartbeat")).handler(ctx -> change(ctx, "put-heartbeat", true));
    AccessGuard.adminOnly(router.delete("/heartbeat")).handler(ctx -> change(ctx, "remove-heartbeat", false));
    return router;
  }

  /** Forwards one change to the notifier; its refusal comes back with the notifier's message. */
  private void change(RoutingContext ctx, String action, boolean withBody) {
    JsonObject fields = new JsonObject();
    if (withBody) {
      Optional<JsonObject> body = ApiReplies.body(ctx, action.endsWith("heartbeat")
          ? "{\"url\": \"https://hc-ping.com/...\", \"intervalSeconds\": 300}"
          : "{\"type\": \"ntfy\", \"url\": \"https://ntfy.sh\", \"topic\": \"...\", \"events\": [...]}");
      if (body.isEmpty()) {
        return;
      }
      fields = body.get();
    }
    String name = ctx.pathParam("name");
    JsonObject request = new JsonObject().put("v", 1).put("action", action).put("fields", fields)
        .put("requestedBy", requestedBy(ctx));
    if (name != null) {
      request.put("name", name);
    }
    vertx.eventBus().<JsonObject>request(Addresses.LAUNCHER_NOTIFICATIONS_CHANGE, request,
            new DeliveryOptions().setLocalOnly(true).setSendTimeout(GET_TIMEOUT.toMillis() * 5))
        .onSuccess(reply -> ctx.json(reply.body()))
        .onFailure(t -> refused(ctx, t));
  }

  private static void refused(RoutingContext ctx, Throwable t) {
    if (!(t instanceof ReplyException reply)) {
      ApiReplies.error(ctx, 503, "notifier_unavailable", "the notifier did not answer: " + t.getMessage());
      return;
    }
    if (reply.failureType() == ReplyFailure.NO_HANDLERS) {
      ApiReplies.error(ctx, 503, "notifier_unavailable", "the notifier is not running in this process; the log says "
          + "why (a data/notifications/outbox.json that does not parse?)");
      return;
    }
    if (reply.failureType() != ReplyFailure.RECIPIENT_FAILURE) {
      ApiReplies.error(ctx, 503, "notifier_unavailable", "the notifier did not answer: " + t.getMessage());
      return;
    }
    switch (ErrorCode.ofCode(reply.failureCode()).orElse(ErrorCode.INTERNAL_ERROR)) {
      case MALFORMED_MESSAGE -> ApiReplies.error(ctx, 400, "bad_request", reply.getMessage());
      case NOT_FOUND -> ApiReplies.error(ctx, 404, "not_found", reply.getMessage());
      case ILLEGAL_TRANSITION -> ApiReplies.error(ctx, 409, "read_only", reply.getMessage());
      case NOT_READY -> ApiReplies.error(ctx, 409, "nothing_configured", reply.getMessage()
          + " (add a destination on this page, or notifications in the config file; docs/notifications.md)");
      case STORAGE_ERROR -> ApiReplies.error(ctx, 500, "storage_error", reply.getMessage());
      default -> ApiReplies.error(ctx, 500, "internal_error", reply.getMessage());
    }
  }

  private static String requestedBy(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    return session == null ? "admin token" : "admin " + session.username();
  }

  private void handleGet(RoutingContext ctx) {
    vertx.eventBus().<JsonObject>request(Addresses.LAUNCHER_NOTIFICATIONS_GET, new JsonObject().put("v", 1),
            new DeliveryOptions().setLocalOnly(true).setSendTimeout(GET_TIMEOUT.toMillis()))
        .onSuccess(reply -> ctx.json(reply.body()))
        .onFailure(t -> refused(ctx, t));
  }

  private void handleTest(RoutingContext ctx) {
    vertx.eventBus().<JsonObject>request(Addresses.LAUNCHER_NOTIFICATIONS_TEST, new JsonObject().put("v", 1)
            .put("requestedBy", requestedBy(ctx)), new DeliveryOptions().setLocalOnly(true)
            .setSendTimeout(TEST_TIMEOUT.toMillis()))
        .onSuccess(reply -> ctx.json(reply.body()))
        .onFailure(t -> refused(ctx, t));
  }
}
