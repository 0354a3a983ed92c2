package io.mangacircus.reader.admin;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ShutdownReply;
import io.mangacircus.contracts.ShutdownRequest;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/system/shutdown[?scope=process|pair]}: stops this process gracefully, as SIGTERM does, after
 * answering 202; with {@code scope=pair} the scraper's process (in a daemon pair) is asked to stop first. The reader
 * cannot stop a process itself: it asks its launcher, and the pair's scraper launcher, over the event bus.
 */
public final class ShutdownRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(ShutdownRoutes.class);

  private final Vertx vertx;
  private final long timeoutMs;

  public ShutdownRoutes(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  /** The route, mounted at {@code /api/system}, admin-only (an admin session with the CSRF header, or the token). */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.post("/shutdown")).handler(this::handleShutdown);
    return router;
  }

  private void handleShutdown(RoutingContext ctx) {
    String scope = ctx.request().getParam("scope", "process");
    if (!scope.equals("process") && !scope.equals("pair")) {
      ApiReplies.error(ctx, 400, "bad_request", "scope is 'process' (the default) or 'pair'");
      return;
    }
    String actor = actor(ctx);
    if (scope.equals("process")) {
      LOG.warn("[SHUTDOWN] {} asked this process to stop", actor);
      acceptAndStopThisProcess(ctx, scope, actor);
      return;
    }
    LOG.warn("[SHUTDOWN] {} asked the pair to stop: asking the scraper's process first", actor);
    vertx.eventBus().request(Addresses.LAUNCHER_PAIR_SHUTDOWN, new ShutdownRequest(actor).toJson(),
            new DeliveryOptions().setSendTimeout(timeoutMs))
        .onSuccess(reply -> {
          ShutdownReply answer = ShutdownReply.fromJson(reply.body());
          LOG.info("[SHUTDOWN] {} {}", answer.node(), answer.stopping() ? "is stopping" : "is this process");
          acceptAndStopThisProcess(ctx, scope, actor);
        })
        .onFailure(t -> {
          boolean unreachable = t instanceof ReplyException reply
              && (reply.failureType() == ReplyFailure.NO_HANDLERS || reply.failureType() == ReplyFailure.TIMEOUT);
          LOG.warn("[SHUTDOWN] the scraper's process did not take the stop ({}); nothing stops", t.getMessage());
          ApiReplies.error(ctx, unreachable ? 503 : 500, unreachable ? "scraper_unreachable" : "internal_error",
              "the scraper's process did not take the stop request (" + t.getMessage() + "); nothing was stopped. "
                  + "Stop this process alone with scope=process, and the scraper with SIGTERM");
        });
  }

  /** Answers 202, and once the answer is written asks this process's launcher to stop the process. */
  private void acceptAndStopThisProcess(RoutingContext ctx, String scope, String actor) {
    ctx.response().setStatusCode(202).putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("stopping", true).put("scope", scope).encode())
        .onComplete(written -> vertx.eventBus().request(Addresses.LAUNCHER_PROCESS_SHUTDOWN,
                new ShutdownRequest(actor + " over HTTP").toJson(),
                new DeliveryOptions().setLocalOnly(true).setSendTimeout(timeoutMs))
            .onFailure(t -> LOG.error("[SHUTDOWN] the stop was accepted but this process's launcher did not take it "
                + "({}); stop the process with SIGTERM", t.getMessage())));
  }

  private static String actor(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    return session == null ? "the admin token" : "'" + session.username() + "'";
  }
}
