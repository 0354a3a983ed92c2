package io.mangacircus.reader.catalog;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.CatalogStore;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** The catalog's routes: read it with a session; change series metadata, collections and covers as an admin. */
public final class CatalogRoutes {

  /** The largest cover image accepted. */
  public static final int MAX_COVER_BYTES = 8 * 1024 * 1024;

  private static final java.util.regex.Pattern COVER_PATH =
      java.util.regex.Pattern.compile("/api/admin/catalog/collections/[^/]+/cover");

  private final Vertx vertx;
  private final KeptCatalog store;
  private final LibraryFiles library;
  private final Runnable metadataChanged;

  /**
   * @param library the published series: metadata is kept only for a series that exists
   * @param metadataChanged called after every change (the library inventory is invalidated by it)
   */
  public CatalogRoutes(Vertx vertx, KeptCatalog store, LibraryFiles library, Runnable metadataChanged) {
    this.vertx = vertx;
    this.store = store;
    this.library = library;
    this.metadataChanged = metadataChanged;
  }

  /** Whether a request is a cover upload, whose body is an image rather than JSON. */
  public static boolean isCoverUpload(io.vertx.core.http.HttpServerRequest request) {
    return request.method() == io.vertx.core.http.HttpMethod.PUT && COVER_PATH.matcher(request.path()).matches();
  }

  /** Reading the catalog, mounted at {@code /api/catalog}: any session. */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/").handler(this::handleCatalog);
    router.get("/collections/:id/cover").handler(this::handleCover);
    return router;
  }

  /**
   * Changing it, mounted at {@code /api/admin/catalog}: admin-only. The cover upload's body is an image read up to
   * {@link #MAX_COVER_BYTES} by the reader's body handler ({@link #isCoverUpload}), not JSON.
   */
  public Router adminRouter() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.put("/series/:series")).handler(this::handlePutSeries);
    AccessGuard.adminOnly(router.put("/collections/:id")).handler(this::handlePutCollection);
    AccessGuard.adminOnly(router.delete("/collections/:id")).handler(this::handleDeleteCollection);
    AccessGuard.adminOnly(router.put("/collections/:id/cover")).handler(this::handlePutCover);
    return router;
  }

  private void handleCatalog(RoutingContext ctx) {
    CatalogStore.Catalog catalog = store.catalog();
    java.util.function.Predicate<String> seen = VisibleSeries.viewer(ctx)::sees;
    JsonObject series = new JsonObject();
    catalog.series().forEach((id, meta) -> {
      if (seen.test(id)) {
        series.put(id, json(meta));
      }
    });
    JsonArray collections = new JsonArray();
    catalog.collections().forEach(c -> collections.add(json(new CatalogStore.Collection(c.id(), c.name(),
        c.series().stream().filter(seen).toList(), c.cover()))));
    ctx.json(new JsonObject().put("series", series).put("collections", collections));
  }

  private void handleCover(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (!LibraryFiles.validId(id)) {
      ApiReplies.error(ctx, 400, "bad_request", "not a collection id");
      return;
    }
    blocking(ctx, () -> store.cover(id).orElseThrow(
        () -> new LibraryFiles.NotFoundException("collection " + id + " has no cover")), cover -> {
          ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, "private, max-age=300")
              .putHeader(HttpHeaders.CONTENT_TYPE, LibraryFiles.mediaType(CatalogStore.Cover.name(id,
                  cover.extension())));
          ctx.response().end(Buffer.buffer(cover.image()));
        });
  }

  private void handlePutSeries(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    Optional<JsonObject> body = ApiReplies.body(ctx,
        "{\"description\": \"...\", \"tags\": [\"...\"], \"ageRating\": \"12\"}");
    if (body.isEmpty()) {
      return;
    }
    Optional<List<String>> tags = strings(body.get().getValue("tags"), 50, 60);
    Object description = body.get().getValue("description");
    if (!LibraryFiles.validId(seriesId) || tags.isEmpty() || (description != null && !(description instanceof String))
        || (description instanceof String d && d.length() > 10_000)) {
      ApiReplies.error(ctx, 400, "bad_request",
          "send {\"description\": text up to 10000 characters, \"tags\": up to 50 strings of up to 60 characters}");
      return;
    }
    // Absent keeps the admin's rating, so an editor that knows only description and tags never drops it; null or
    // "unrated" removes it.
    boolean ratingGiven = body.get().containsKey("ageRating");
    Object rating = body.get().getValue("ageRating");
    if (ratingGiven && rating != null && !(rating instanceof String r && AgeRating.fromCode(r).isPresent())) {
      ApiReplies.error(ctx, 400, "bad_request", "ageRating is one of all, 9, 12, 15, 18, or unrated or null for none");
      return;
    }
    blocking(ctx, () -> {
      library.chapters(seriesId); // a series without a published chapter is not in the library: 404
      String ageRating = ratingGiven ? (String) rating : store.series(seriesId).ageRating();
      return store.putSeries(seriesId, new CatalogStore.SeriesMeta((String) description, tags.get(), ageRating));
    }, saved -> {
      metadataChanged.run();
      ctx.json(json(saved));
    });
  }

  private void handlePutCollection(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"name\": \"...\", \"series\": [\"<series id>\"]}");
    if (body.isEmpty()) {
      return;
    }
    Optional<List<String>> series = strings(body.get().getValue("series"), 10_000, 160);
    if (!LibraryFiles.validId(id) || !(body.get().getValue("name") instanceof String name) || name.isBlank()
        || name.length() > 200 || series.isEmpty() || !series.get().stream().allMatch(LibraryFiles::validId)) {
      ApiReplies.error(ctx, 400, "bad_request",
          "send {\"name\": up to 200 characters, \"series\": [series ids]} to a collection id made of letters, digits,"
              + " '.', '_' and '-'");
      return;
    }
    blocking(ctx, () -> store.putCollection(id, name.strip(), series.get()), saved -> {
      metadataChanged.run();
      ctx.json(json(saved));
    });
  }

  private void handleDeleteCollection(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (!LibraryFiles.validId(id)) {
      ApiReplies.error(ctx, 400, "bad_request", "not a collection id");
      return;
    }
    blocking(ctx, () -> store.deleteCollection(id), deleted -> {
      if (!deleted) {
        ApiReplies.error(ctx, 404, "not_found", "no collection " + id);
        return;
      }
      metadataChanged.run();
      ctx.response().setStatusCode(204).end();
    });
  }

  private void handlePutCover(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    Buffer image = ctx.body().buffer();
    if (!LibraryFiles.validId(id)) {
      ApiReplies.error(ctx, 400, "bad_request", "not a collection id");
      return;
    }
    if (image == null || CoverImage.extensionOf(image.getBytes(0, Math.min(8, image.length()))) == null) {
      ApiReplies.error(ctx, 400, "not_an_image", "send a JPEG or PNG image (at most 8 MiB) as the request body");
      return;
    }
    byte[] bytes = image.getBytes();
    blocking(ctx, () -> CoverImage.check(bytes), verdict -> {
      if (!verdict.valid()) {
        ApiReplies.error(ctx, 400, "not_an_image", verdict.refusal());
        return;
      }
      blocking(ctx, () -> store.putCover(id, bytes, verdict.extension())
          .orElseThrow(() -> new LibraryFiles.NotFoundException("no collection " + id)), saved -> {
            metadataChanged.run();
            ctx.json(json(saved));
          });
    });
  }

  private static Optional<List<String>> strings(Object value, int maxItems, int maxLength) {
    if (value == null) {
      return Optional.of(List.of());
    }
    if (!(value instanceof JsonArray array) || array.size() > maxItems) {
      return Optional.empty();
    }
    List<String> out = new ArrayList<>();
    for (Object item : array) {
      if (!(item instanceof String s) || s.isBlank() || s.length() > maxLength) {
        return Optional.empty();
      }
      out.add(s.strip());
    }
    return Optional.of(out);
  }

  private static JsonObject json(CatalogStore.SeriesMeta meta) {
    return new JsonObject().put("description", meta.description()).put("tags", new JsonArray(meta.tags()))
        .put("ageRating", meta.ageRating());
  }

  private static JsonObject json(CatalogStore.Collection c) {
    return new JsonObject().put("id", c.id()).put("name", c.name()).put("series", new JsonArray(c.series()))
        .put("cover", c.cover() == null ? null : "/api/catalog/collections/" + c.id() + "/cover");
  }

  private <T> void blocking(RoutingContext ctx, Callable<T> work, java.util.function.Consumer<T> answer) {
    ApiReplies.blocking(vertx, ctx, work, answer);
  }

}
