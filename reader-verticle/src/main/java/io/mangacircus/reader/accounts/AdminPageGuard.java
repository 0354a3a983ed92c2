package io.mangacircus.reader.accounts;

import io.vertx.core.Handler;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Guards the browser's admin pages ({@code /admin/*}): no session → the login page, a reader account → 403. */
public final class AdminPageGuard implements Handler<RoutingContext> {

  private final AccessGuard guard;

  public AdminPageGuard(AccessGuard guard) {
    this.guard = guard;
  }

  @Override
  public void handle(RoutingContext ctx) {
    Cookie cookie = ctx.request().getCookie(Sessions.COOKIE);
    if (cookie == null || cookie.getValue().isEmpty()) {
      toLogin(ctx);
      return;
    }
    guard.lookup(cookie.getValue()).onComplete(ar -> {
      if (ar.failed()) {
        ctx.fail(500, ar.cause());
      } else if (ar.result().isEmpty()) {
        toLogin(ctx);
      } else if (!"admin".equals(ar.result().get().role())) {
        ctx.response().setStatusCode(403).putHeader("Content-Type", "text/html; charset=utf-8")
            .end("<!doctype html><meta charset=utf-8><title>Admins only</title>"
                + "<p id=forbidden>This page is for admins. <a href=\"/\">Back to the library</a></p>");
      } else {
        ctx.next();
      }
    });
  }

  private static void toLogin(RoutingContext ctx) {
    ctx.redirect("/login.html?next=" + URLEncoder.encode(ctx.request().uri(), StandardCharsets.UTF_8));
  }
}
