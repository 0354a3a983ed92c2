package io.mangacircus.reader.accounts;

import io.vertx.core.Handler;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Guards the browser's admin pages ({@code /admin/*}, however the path is spelled: {@link PagePath}): no session → the
 * login page, a reader account → 403. Mounted in front of every page, so that it reads each path itself rather than
 * trusting a route's match; a path hiding a separator ({@code %2F}, {@code %5C}, a backslash) is 404 for every page.
 */
public final class AdminPageGuard implements Handler<RoutingContext> {

  private final AccessGuard guard;

  public AdminPageGuard(AccessGuard guard) {
    this.guard = guard;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String path = PagePath.decode(ctx.request().path());
    if (path == null) {
      ctx.response().setStatusCode(404).putHeader("Content-Type", "text/plain; charset=utf-8")
          .end("no such page: a path may not hide a separator (%2F, %5C or a backslash)");
      return;
    }
    if (!PagePath.isAdmin(path)) {
      ctx.next();
      return;
    }
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
