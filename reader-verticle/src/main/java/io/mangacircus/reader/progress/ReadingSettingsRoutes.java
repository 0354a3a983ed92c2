package io.mangacircus.reader.progress;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.ReadingSettings;
import io.mangacircus.reader.store.ReadingSettingsStore;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;
import java.util.Optional;

/**
 * {@code /api/series/<series>/reading-settings} and {@code /api/me/reading-defaults} (docs/api.md "Reading
 * settings"): how the signed-in user reads a series and by default, kept on the server so they follow the user from one
 * browser to another. Session-only (no route is declared open to app passwords); the series is one the user sees (the
 * series guard checks before these routes).
 */
public final class ReadingSettingsRoutes {

  private static final String SHAPE = "{\"layout\": \"single\"|\"double\"|\"strip\"|\"auto\", \"direction\": "
      + "\"ltr\"|\"rtl\", \"fit\": \"width\"|\"height\"|\"original\", \"offset\": true|false, \"crop\": true|false}";

  private final Vertx vertx;
  private final ReadingSettingsStore store;
  private final LibraryFiles files;
  private final InstantSource clock;

  public ReadingSettingsRoutes(Vertx vertx, ReadingSettingsStore store, LibraryFiles files, InstantSource clock) {
    this.vertx = vertx;
    this.store = store;
    this.files = files;
    this.clock = clock;
  }

  /** Mounts the routes on the reader's router. */
  public void mount(Router router) {
    Router series = Router.router(vertx);
    series.get("/:series/reading-settings").handler(this::handleGetSeries);
    series.put("/:series/reading-settings").handler(this::handlePutSeries);
    series.delete("/:series/reading-settings").handler(this::handleDeleteSeries);
    router.route("/api/series*").subRouter(series);
    Router defaults = Router.router(vertx);
    defaults.get("/").handler(this::handleGetDefaults);
    defaults.put("/").handler(this::handlePutDefaults);
    router.route("/api/me/reading-defaults*").subRouter(defaults);
  }

  private void handleGetSeries(RoutingContext ctx) {
    long user = ((Session) ctx.get(AccessGuard.SESSION)).userId();
    String series = ctx.pathParam("series");
    ApiReplies.blocking(vertx, ctx, () -> {
      requireSeries(series);
      return both(store.series(user, series), store.defaults(user));
    }, ctx::json);
  }

  private void handlePutSeries(RoutingContext ctx) {
    long user = ((Session) ctx.get(AccessGuard.SESSION)).userId();
    String series = ctx.pathParam("series");
    Optional<ReadingSettings> settings = settings(ctx);
    if (settings.isEmpty()) {
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> {
      requireSeries(series);
      store.saveSeries(user, series, settings.get(), clock.instant());
      return both(settings, store.defaults(user));
    }, ctx::json);
  }

  private void handleDeleteSeries(RoutingContext ctx) {
    long user = ((Session) ctx.get(AccessGuard.SESSION)).userId();
    String series = ctx.pathParam("series");
    // Forgetting works for a series no longer in the library too: nothing of it is shown.
    ApiReplies.blocking(vertx, ctx, () -> store.deleteSeries(user, series),
        removed -> ctx.response().setStatusCode(204).end());
  }

  private void handleGetDefaults(RoutingContext ctx) {
    long user = ((Session) ctx.get(AccessGuard.SESSION)).userId();
    ApiReplies.blocking(vertx, ctx, () -> new JsonObject().put("defaults", json(store.defaults(user))), ctx::json);
  }

  private void handlePutDefaults(RoutingContext ctx) {
    long user = ((Session) ctx.get(AccessGuard.SESSION)).userId();
    Optional<ReadingSettings> settings = settings(ctx);
    if (settings.isEmpty()) {
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> {
      store.saveDefaults(user, settings.get(), clock.instant());
      return new JsonObject().put("defaults", json(settings));
    }, ctx::json);
  }

  /** The body's settings, or empty after answering 400 naming the key at fault. */
  private static Optional<ReadingSettings> settings(RoutingContext ctx) {
    Optional<JsonObject> body = ApiReplies.body(ctx, SHAPE);
    if (body.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(ReadingSettings.of(body.get().getMap()));
    } catch (IllegalArgumentException e) {
      ApiReplies.error(ctx, 400, "bad_request", e.getMessage());
      return Optional.empty();
    }
  }

  /** A {@link LibraryFiles.NotFoundException} (404) when the library holds no chapter of the series. */
  private void requireSeries(String series) {
    if (files.chapters(series).isEmpty()) {
      throw new LibraryFiles.NotFoundException("no series " + series);
    }
  }

  private static JsonObject both(Optional<ReadingSettings> series, Optional<ReadingSettings> defaults) {
    return new JsonObject().put("series", json(series)).put("defaults", json(defaults));
  }

  private static JsonObject json(Optional<ReadingSettings> settings) {
    return settings.map(s -> new JsonObject(s.toMap())).orElse(null);
  }
}
