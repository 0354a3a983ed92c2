package io.mangacircus.reader.http;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/** The browser's pages, scripts, styles and WebJars, each with the cache policy its kind needs. */
public final class StaticPages {

  private StaticPages() {
  }

  /** Mounts them at the end of the router, after every API route and guard. */
  public static void mount(Router router) {
    // Pages and scripts are revalidated on every load (a 304 when unchanged), so an upgrade is seen at once and an
    // admin page is never shown from a cache to whoever uses the browser next.
    router.route("/*").handler(ctx -> {
      String policy = ctx.normalizedPath().startsWith("/admin/") ? "no-store" : "no-cache";
      ctx.addHeadersEndHandler(v -> ctx.response().headers().set("Cache-Control", policy));
      ctx.next();
    });
    // Vert.x's MIME table has no .webmanifest; browsers expect the manifest's own type.
    router.get("/manifest.webmanifest").handler(ctx -> {
      ctx.addHeadersEndHandler(v -> ctx.response().headers().set("Content-Type", "application/manifest+json"));
      ctx.next();
    });
    // Versioned paths of pinned WebJars (sockjs-client for the console's bridge): the same URL never changes content.
    router.route("/webjars/*").handler(StaticHandler.create("META-INF/resources/webjars").setMaxAgeSeconds(86_400));
    router.route("/*").handler(StaticHandler.create("webroot"));
  }
}
