package io.mangacircus.reader.library;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Session;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/admin/library/rescan}: an operator's request to read the whole library folder again (after changing
 * it by hand); answers when that scan is done, with what it found (docs/api.md).
 */
public final class LibraryAdminRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(LibraryAdminRoutes.class);

  private final io.vertx.core.Vertx vertx;
  private final LibraryInventory inventory;

  public LibraryAdminRoutes(io.vertx.core.Vertx vertx, LibraryInventory inventory) {
    this.vertx = vertx;
    this.inventory = inventory;
  }

  /** The route, mounted at {@code /api/admin/library}; admin-only, so the guard asks for an admin (and CSRF). */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.post("/rescan")).handler(this::handleRescan);
    return router;
  }

  private void handleRescan(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    LOG.info("[LIBRARY] {} asked for a rescan of the library", session == null ? "the admin token"
        : "'" + session.username() + "'");
    inventory.fresh().whenComplete((summary, failure) -> ctx.vertx().runOnContext(v -> {
      if (failure != null || summary.status() == LibraryInventory.Status.ERROR) {
        ApiReplies.error(ctx, 500, "library_scan_failed", "the library scan failed: "
            + (failure != null ? failure.getMessage() : summary.error()) + "; the last list is kept");
        return;
      }
      ctx.response().putHeader("Content-Type", "application/json").end(new JsonObject()
          .put("status", summary.status().wire()).put("scannedAt", String.valueOf(summary.scannedAt()))
          .put("series", summary.series().size()).put("chapters", summary.series().stream()
              .mapToInt(SeriesEntry::chapters).sum()).put("skipped", summary.skipped().size()).encode());
    }));
  }
}
