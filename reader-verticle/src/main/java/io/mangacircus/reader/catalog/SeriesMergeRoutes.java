package io.mangacircus.reader.catalog;

import io.mangacircus.reader.access.SeriesMerges;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.store.SeriesMergeStore;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;
import java.util.Optional;

/**
 * The admin's series merges, mounted at {@code /api/admin/series}: list them, merge one series into another, undo a
 * merge. The decision is {@link SeriesMerges}'; the merge is stored first and then applied, so that what readers see
 * is always what a restart would load.
 */
public final class SeriesMergeRoutes {

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final SeriesMerges merges;
  private final SeriesMergeStore store;
  private final InstantSource clock;
  private final Runnable changed;

  /** @param changed told after each merge or unmerge is stored and applied here (the other readers are told) */
  public SeriesMergeRoutes(Vertx vertx, LibraryInventory inventory, SeriesMerges merges, SeriesMergeStore store,
      InstantSource clock, Runnable changed) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.merges = merges;
    this.store = store;
    this.clock = clock;
    this.changed = changed;
  }

  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.get("/merges")).handler(this::handleList);
    AccessGuard.adminOnly(router.post("/:series/merge")).handler(this::handleMerge);
    AccessGuard.adminOnly(router.delete("/:series/merge")).handler(this::handleUnmerge);
    return router;
  }

  /** {@code GET /api/admin/series/merges}: every merge with both series' titles (null for one not listed now). */
  private void handleList(RoutingContext ctx) {
    JsonArray list = new JsonArray();
    merges.all().forEach((series, into) -> list.add(new JsonObject().put("series", series).put("title", title(series))
        .put("into", into).put("intoTitle", title(into))));
    ctx.json(new JsonObject().put("merges", list));
  }

  /** {@code POST /api/admin/series/:series/merge} with {@code {"into": "<series id>"}}. */
  private void handleMerge(RoutingContext ctx) {
    String series = ctx.pathParam("series");
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"into\": \"<series id>\"}");
    if (body.isEmpty()) {
      return;
    }
    Object into = body.get().getValue("into");
    if (!LibraryFiles.validId(series)) {
      ApiReplies.error(ctx, 404, "not_found", "no series " + series);
      return;
    }
    String target = into instanceof String s ? s : null;
    ApiReplies.blocking(vertx, ctx, () -> {
      // Decided and recorded as one step, so that two admins' merges at once cannot build a chain.
      Optional<SeriesMerges.Refusal> refusal;
      synchronized (merges) {
        refusal = merges.refusal(series, target, id -> inventory.entry(id).isPresent());
        if (refusal.isEmpty()) {
          store.merge(series, target, clock.instant());
          merges.merged(series, target);
        }
      }
      if (refusal.isEmpty()) {
        changed.run();
      }
      return refusal;
    }, refusal -> {
      if (refusal.isPresent()) {
        ApiReplies.error(ctx, refusal.get().status(), refusal.get().status() == 404 ? "not_found" : "bad_request",
            refusal.get().message());
      } else {
        ctx.json(new JsonObject().put("series", series).put("into", target));
      }
    });
  }

  /** {@code DELETE /api/admin/series/:series/merge}: the series is shown on its own again. */
  private void handleUnmerge(RoutingContext ctx) {
    String series = ctx.pathParam("series");
    if (merges.mergedInto(series).isEmpty()) {
      ApiReplies.error(ctx, 404, "not_found", series + " is not merged into another series");
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> {
      synchronized (merges) {
        store.unmerge(series);
        merges.unmerged(series);
      }
      changed.run();
      return new JsonObject().put("series", series).putNull("into");
    }, ctx::json);
  }

  private String title(String seriesId) {
    return inventory.entry(seriesId).map(SeriesEntry::title).orElse(null);
  }
}
