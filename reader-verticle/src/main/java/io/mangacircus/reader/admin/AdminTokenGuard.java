package io.mangacircus.reader.admin;

import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Lets a request through to admin routes only with {@code Authorization: Bearer <admin token>}; 403 when no token
 * is configured, 401 for a missing or wrong one. (Admin sessions join this guard with the accounts feature.)
 */
public final class AdminTokenGuard implements Handler<RoutingContext> {

  private final byte[] token;

  public AdminTokenGuard(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (token.length == 0) {
      ctx.response().setStatusCode(403);
      ctx.json(new JsonObject().put("error", "admin_disabled")
          .put("message", "the admin API needs an admin token: set MANGACIRCUS_ADMIN_TOKEN"));
      return;
    }
    String header = ctx.request().getHeader("Authorization");
    byte[] offered = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
        ? header.substring(7).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
    if (!MessageDigest.isEqual(token, offered)) {
      ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer realm=\"mangacircus-admin\"");
      ctx.json(new JsonObject().put("error", "unauthorized").put("message", "admin bearer token missing or wrong"));
      return;
    }
    ctx.next();
  }
}
