package io.mangacircus.reader.accounts;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.AppPassword;
import io.mangacircus.reader.store.AppScope;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/me/app-passwords}: the signed-in user lists (with the app passwords a password reset ended, if it did
 * since they last made one), creates (the secret shown in that answer only; scope {@code read} unless asked for
 * {@code read+progress}) and revokes their app passwords. Session only: an app password never reaches these routes
 * (they are not app-readable).
 */
public final class AppPasswordRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(AppPasswordRoutes.class);

  /** App passwords one user may have. */
  public static final int MAX_PER_USER = 20;

  private final Vertx vertx;
  private final AppPasswords appPasswords;

  public AppPasswordRoutes(Vertx vertx, AppPasswords appPasswords) {
    this.vertx = vertx;
    this.appPasswords = appPasswords;
  }

  /** The routes, mounted at {@code /api/me/app-passwords}. */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/").handler(this::handleList);
    router.post("/").handler(this::handleCreate);
    router.delete("/:id").handler(this::handleRevoke);
    return router;
  }

  private void handleList(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    ApiReplies.blocking(vertx, ctx, () -> {
      JsonArray list = new JsonArray();
      List<AppPassword> current = appPasswords.list(session.userId());
      for (AppPassword p : current) {
        list.add(new JsonObject().put("id", p.id()).put("name", p.name()).put("scope", p.scope().wire())
            .put("koreaderSync", p.syncable()).put("createdAt", p.createdAt().toString())
            .put("lastUsedAt", p.lastUsedAt() == null ? null : p.lastUsedAt().toString()));
      }
      return new JsonObject().put("appPasswords", list).put("endedByReset", appPasswords
          .endedByReset(session.userId(), current)
          .map(ended -> new JsonObject().put("at", ended.at().toString()).put("count", ended.count()))
          .orElse(null));
    }, ctx::json);
  }

  private void handleCreate(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"name\": \"Panels on my tablet\"}");
    if (body.isEmpty()) {
      return;
    }
    if (!(body.get().getValue("name") instanceof String raw) || !AppPasswords.validName(raw.trim())) {
      ApiReplies.error(ctx, 400, "bad_request", "send {\"name\": ...}, 1 to " + AppPasswords.MAX_NAME
          + " characters");
      return;
    }
    String name = raw.trim();
    Object asked = body.get().getValue("scope");
    Optional<AppScope> parsed = asked == null ? Optional.of(AppScope.READ)
        : asked instanceof String wire ? AppScope.parse(wire) : Optional.empty();
    if (parsed.isEmpty()) {
      ApiReplies.error(ctx, 400, "bad_request", "\"scope\" is \"read\" (the default: the app may only read) or "
          + "\"read+progress\" (it may also move your reading positions)");
      return;
    }
    AppScope scope = parsed.get();
    ApiReplies.<Object>blocking(vertx, ctx, () -> {
      if (appPasswords.list(session.userId()).size() >= MAX_PER_USER) {
        return "limit";
      }
      return appPasswords.create(session.userId(), name, scope).<Object>map(c -> c).orElse("taken");
    }, result -> {
      if (result instanceof AppPasswords.Created created) {
        LOG.info("[ACCOUNTS] '{}' created app password {} '{}' ({})", session.username(), created.id(), name,
            scope.wire());
        ctx.response().setStatusCode(201);
        ctx.json(new JsonObject().put("id", created.id()).put("name", created.name())
            .put("username", session.username()).put("password", created.secret())
            .put("scope", scope.wire()).put("koreaderSync", true).put("createdAt", created.createdAt().toString()));
      } else if ("limit".equals(result)) {
        ApiReplies.error(ctx, 409, "conflict", "at most " + MAX_PER_USER + " app passwords; revoke one first");
      } else {
        ApiReplies.error(ctx, 409, "conflict", "you already have an app password named '" + name + "'");
      }
    });
  }

  private void handleRevoke(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    long id;
    try {
      id = Long.parseLong(ctx.pathParam("id"));
    } catch (NumberFormatException e) {
      ApiReplies.error(ctx, 400, "bad_request", "an app password id is a number");
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> appPasswords.revoke(session.userId(), id), removed -> {
      if (!removed) {
        ApiReplies.error(ctx, 404, "not_found", "you have no app password " + id);
        return;
      }
      LOG.info("[ACCOUNTS] '{}' revoked app password {}", session.username(), id);
      ctx.response().setStatusCode(204).end();
    });
  }
}
