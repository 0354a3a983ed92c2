package io.mangacircus.reader.library;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.LibraryConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.HashMap;
import java.util.Map;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin's library routes (docs/api.md): {@code POST /api/admin/library/rescan}, a request to read every library
 * again (after changing one by hand), answered when that scan is done with what it found; and the libraries
 * themselves, {@code GET /api/admin/libraries}, {@code POST /api/admin/libraries} (add a collection, which starts a
 * scan) and {@code DELETE /api/admin/libraries/:name} (remove one an admin added).
 */
public final class LibraryAdminRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(LibraryAdminRoutes.class);

  /** At most this many unreadable items are listed per collection (all are counted). */
  static final int SHOWN_UNREADABLE = 100;

  private final io.vertx.core.Vertx vertx;
  private final LibraryInventory inventory;
  private final CollectionUpkeep collections;

  public LibraryAdminRoutes(io.vertx.core.Vertx vertx, LibraryInventory inventory, CollectionUpkeep collections) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.collections = collections;
  }

  /** The routes, mounted at {@code /api/admin}; admin-only, so the guard asks for an admin (and CSRF). */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.post("/library/rescan")).handler(this::handleRescan);
    AccessGuard.adminOnly(router.get("/libraries")).handler(this::handleList);
    AccessGuard.adminOnly(router.post("/libraries")).handler(BodyHandler.create().setBodyLimit(4096))
        .handler(this::handleAdd);
    AccessGuard.adminOnly(router.delete("/libraries/:name")).handler(this::handleRemove);
    return router;
  }

  private void handleList(RoutingContext ctx) {
    LibraryInventory.Summary summary = inventory.summary();
    Map<String, int[]> counts = new HashMap<>();
    for (SeriesEntry s : summary.series()) {
      int[] c = counts.computeIfAbsent(s.library(), k -> new int[2]);
      c[0]++;
      c[1] += s.chapters();
    }
    JsonArray list = new JsonArray().add(new JsonObject().put("name", SeriesEntry.DOWNLOADS).put("kind", "downloads")
        .put("path", null).put("origin", "built-in")
        .put("series", counts.getOrDefault(SeriesEntry.DOWNLOADS, new int[2])[0])
        .put("books", counts.getOrDefault(SeriesEntry.DOWNLOADS, new int[2])[1]));
    for (CollectionUpkeep.Described c : collections.describe()) {
      JsonArray unreadable = new JsonArray();
      c.shelf().last().unreadable().stream().limit(SHOWN_UNREADABLE).forEach(item -> unreadable.add(new JsonObject()
          .put("path", item.path()).put("cause", item.cause().name().toLowerCase(java.util.Locale.ROOT))
          .put("reason", item.reason())));
      int[] held = counts.getOrDefault(c.config().name(), new int[2]);
      list.add(new JsonObject().put("name", c.config().name()).put("kind", LibraryConfig.COLLECTION)
          .put("path", c.config().folder().toString()).put("origin", c.fromConfigFile() ? "config" : "admin")
          .put("watched", c.watched()).put("rescanMinutes", c.config().rescanMinutes())
          .put("series", held[0]).put("books", held[1])
          .put("scannedAt", c.shelf().scanned() ? c.shelf().last().finishedAt().toString() : null)
          .put("unreadableCount", c.shelf().last().unreadable().size()).put("unreadable", unreadable));
    }
    ctx.json(new JsonObject().put("libraries", list));
  }

  private void handleAdd(RoutingContext ctx) {
    JsonObject body;
    try {
      body = ctx.body().asJsonObject();
    } catch (RuntimeException e) {
      body = null;
    }
    if (body == null || !(body.getValue("name") instanceof String name) || !(body.getValue("path") instanceof String path)
        || !(body.getValue("watch", Boolean.TRUE) instanceof Boolean watch)
        || !(body.getValue("rescanMinutes", 60) instanceof Integer minutes)) {
      ApiReplies.error(ctx, 400, "bad_request", "expected {\"name\": text, \"path\": text, \"watch\"?: boolean, "
          + "\"rescanMinutes\"?: number}");
      return;
    }
    LibraryConfig config = new LibraryConfig(name, LibraryConfig.COLLECTION, path, minutes, watch);
    vertx.executeBlocking(() -> {
      collections.add(config);
      return null;
    }, false).onComplete(ar -> {
      if (ar.succeeded()) {
        ctx.response().setStatusCode(201);
        ctx.json(new JsonObject().put("name", name).put("path", config.folder().toString()));
      } else if (ar.cause() instanceof CollectionUpkeep.Refused refused) {
        ApiReplies.error(ctx, 400, "library_refused", refused.getMessage());
      } else {
        ctx.fail(ar.cause());
      }
    });
  }

  private void handleRemove(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    vertx.executeBlocking(() -> {
      collections.remove(name);
      return null;
    }, false).onComplete(ar -> {
      if (ar.succeeded()) {
        ctx.response().setStatusCode(204).end();
      } else if (ar.cause() instanceof CollectionUpkeep.Refused refused) {
        ApiReplies.error(ctx, 400, "library_refused", refused.getMessage());
      } else {
        ctx.fail(ar.cause());
      }
    });
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
