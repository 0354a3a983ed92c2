package io.mangacircus.reader.finder;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryInventory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The admin's title finder over HTTP, mounted at {@code /api/admin}: the sources, a search, a title's preview (each
 * chapter marked with whether the library holds it), covers (through the scraper, kept in the reader's
 * {@link CoverCache}) and the followed titles, each forwarded to the scraper's request (docs/api.md, "Finding and
 * adding titles"). The reader keeps no search state of its own besides the cover files.
 */
public final class TitleFinderRoutes {

  /** Version of the messages these routes send. */
  private static final int VERSION = 1;
  /**
   * How long a request that reaches a site (search, preview, cover) may take at least, ms: the scraper asks every source
   * that can search, each through its lane's pacing and request limits, so the reader's usual scraper timeout (2 s, for
   * answers from the scraper's own state) is too short for it.
   */
  public static final long SITE_TIMEOUT_MS = 20_000;
  /** How long a browser may keep a cover without asking again, seconds (covers of a cover id never change). */
  public static final int COVER_MAX_AGE_SECONDS = 86_400;

  private final Vertx vertx;
  private final long timeoutMs;
  private final LibraryInventory inventory;
  private final Path library;
  private final CoverCache covers;

  /**
   * @param timeoutMs how long a request to the scraper may take
   * @param inventory the library's series, to find those of a previewed title
   * @param library the library folder, whose {@code chapter.json} files say which chapters are held
   */
  public TitleFinderRoutes(Vertx vertx, long timeoutMs, LibraryInventory inventory, Path library, CoverCache covers) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
    this.inventory = inventory;
    this.library = library;
    this.covers = covers;
  }

  /** The routes, relative to {@code /api/admin}; every one admin-only. */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.get("/sources")).handler(this::handleSources);
    AccessGuard.adminOnly(router.get("/search")).handler(this::handleSearch);
    AccessGuard.adminOnly(router.get("/titles/:source/:titleId")).handler(this::handlePreview);
    AccessGuard.adminOnly(router.get("/covers/:source/:coverId")).handler(this::handleCover);
    AccessGuard.adminOnly(router.get("/following")).handler(this::handleFollowing);
    AccessGuard.adminOnly(router.put("/following/:source/:titleId")).handler(this::handleFollow);
    return router;
  }

  /** The path of a cover on these routes, or null when there is no cover id. */
  public static String coverPath(String source, String coverId) {
    if (source == null || coverId == null || coverId.isEmpty()) {
      return null;
    }
    return "/api/admin/covers/" + encode(source) + "/" + encode(coverId);
  }

  private static String encode(String part) {
    return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private void handleSources(RoutingContext ctx) {
    ask(ctx, Addresses.SCRAPER_SOURCES_LIST, message(), timeoutMs, Function.identity());
  }

  private void handleSearch(RoutingContext ctx) {
    String query;
    String source;
    int limit;
    try {
      query = FinderInput.query(ctx.queryParams().get("q"));
      source = FinderInput.optionalSource(ctx.queryParams().get("source"));
      limit = FinderInput.limit(ctx.queryParams().get("limit"));
    } catch (IllegalArgumentException e) {
      ApiReplies.error(ctx, 400, "bad_request", e.getMessage());
      return;
    }
    JsonObject request = message().put("source", source).put("query", query).put("limit", limit);
    request(Addresses.SCRAPER_TITLES_SEARCH, request, siteTimeout())
        .onFailure(t -> answerFailure(ctx, t, siteTimeout()))
        .onSuccess(message -> {
          JsonObject reply = message.body().copy();
          reply.remove("v");
          // The first scan's answer, as for a preview: a search right after a start still sees the library.
          Future.fromCompletionStage(inventory.firstAnswer(), vertx.getOrCreateContext())
              .map(summary -> LibraryMatches.of(summary.series()))
              .onComplete(matched -> {
                LibraryMatches matches = matched.succeeded() ? matched.result() : LibraryMatches.of(List.of());
                JsonArray results = reply.getJsonArray("results", new JsonArray());
                for (int i = 0; i < results.size(); i++) {
                  markSearchResult(results.getJsonObject(i), matches);
                }
                ctx.json(reply.put("results", results)
                    .put("problems", reply.getJsonArray("problems", new JsonArray())));
              });
        });
  }

  /** Its cover route, and whether the library has it: then its series id and the library's own cover. */
  private static void markSearchResult(JsonObject result, LibraryMatches matches) {
    result.put("cover", coverPath(result.getString("source"), result.getString("coverId")));
    Optional<String> series = matches.seriesId(result.getString("source"), result.getString("titleId"));
    result.put("inLibrary", series.isPresent())
        .put("series", series.orElse(null))
        .put("libraryCover", series.map(LibraryMatches::coverPath).orElse(null));
  }

  private void handlePreview(RoutingContext ctx) {
    String source;
    String titleId;
    try {
      source = FinderInput.source(ctx.pathParam("source"), "source");
      titleId = FinderInput.id(ctx.pathParam("titleId"), "titleId");
    } catch (IllegalArgumentException e) {
      ApiReplies.error(ctx, 400, "bad_request", e.getMessage());
      return;
    }
    request(Addresses.SCRAPER_TITLES_PREVIEW, message().put("source", source).put("titleId", titleId), siteTimeout())
        .onFailure(t -> answerFailure(ctx, t, siteTimeout()))
        .onSuccess(message -> {
          JsonObject preview = message.body().copy();
          preview.remove("v");
          // The first scan's answer (at once after it): a preview right after a start still sees the library.
          Future.fromCompletionStage(inventory.firstAnswer(), vertx.getOrCreateContext())
              .compose(summary -> vertx.executeBlocking(() -> LibraryHoldings.of(library, summary.series(), source,
                  titleId), false)).onComplete(held -> {
                LibraryHoldings holdings = held.succeeded() ? held.result() : LibraryHoldings.none();
                JsonArray chapters = preview.getJsonArray("chapters", new JsonArray());
                for (int i = 0; i < chapters.size(); i++) {
                  JsonObject chapter = chapters.getJsonObject(i);
                  chapter.put("inLibrary", holdings.has(chapter.getString("id"), text(chapter.getValue("number")),
                      chapter.getString("language")));
                }
                preview.put("chapters", chapters)
                    .put("cover", coverPath(preview.getString("source", source), preview.getString("coverId")));
                ctx.json(preview);
              });
        });
  }

  private static String text(Object value) {
    return value == null ? null : String.valueOf(value);
  }

  private void handleCover(RoutingContext ctx) {
    String source;
    String coverId;
    try {
      source = FinderInput.source(ctx.pathParam("source"), "source");
      coverId = FinderInput.id(ctx.pathParam("coverId"), "coverId");
    } catch (IllegalArgumentException e) {
      ApiReplies.error(ctx, 400, "bad_request", e.getMessage());
      return;
    }
    vertx.executeBlocking(() -> covers.get(source, coverId), false).onComplete(cached -> {
      if (cached.succeeded() && cached.result().isPresent()) {
        sendCover(ctx, cached.result().get());
        return;
      }
      vertx.eventBus().<Object>request(Addresses.SCRAPER_COVERS_FETCH, message().put("source", source)
          .put("coverId", coverId), new DeliveryOptions().setSendTimeout(siteTimeout()))
          .onFailure(t -> answerFailure(ctx, t, siteTimeout()))
          .onSuccess(reply -> {
            Optional<String> type = CoverCache.imageType(reply.headers().get("content-type"));
            if (!(reply.body() instanceof Buffer bytes) || type.isEmpty() || bytes.length() > CoverCache.MAX_BYTES) {
              ApiReplies.error(ctx, 502, "bad_image", "the scraper's answer for cover " + coverId + " of " + source
                  + " is not an image");
              return;
            }
            CoverCache.Cover cover = new CoverCache.Cover(type.get(), bytes.getBytes());
            sendCover(ctx, cover);
            vertx.executeBlocking(() -> {
              covers.put(source, coverId, cover.contentType(), cover.bytes());
              return null;
            }, false).onFailure(t -> org.slf4j.LoggerFactory.getLogger(TitleFinderRoutes.class)
                .warn("[READER] cover {} of {} could not be cached: {}", coverId, source, t.toString()));
          });
    });
  }

  private static void sendCover(RoutingContext ctx, CoverCache.Cover cover) {
    if (ctx.response().ended()) {
      return;
    }
    ctx.response().putHeader("Content-Type", cover.contentType())
        .putHeader("Cache-Control", "private, max-age=" + COVER_MAX_AGE_SECONDS)
        .end(Buffer.buffer(cover.bytes()));
  }

  private void handleFollowing(RoutingContext ctx) {
    ask(ctx, Addresses.SCRAPER_FOLLOWS_LIST, message(), timeoutMs, Function.identity());
  }

  private void handleFollow(RoutingContext ctx) {
    String source;
    String titleId;
    String language;
    Optional<JsonObject> body = ApiReplies.body(ctx, "such as {\"follow\": true, \"language\": \"en\"}");
    if (body.isEmpty()) {
      return;
    }
    Object follow = body.get().getValue("follow");
    try {
      source = FinderInput.source(ctx.pathParam("source"), "source");
      titleId = FinderInput.id(ctx.pathParam("titleId"), "titleId");
      if (!(follow instanceof Boolean)) {
        throw new IllegalArgumentException("follow must be true or false");
      }
      language = FinderInput.language(body.get().getValue("language"));
    } catch (IllegalArgumentException e) {
      ApiReplies.error(ctx, 400, "bad_request", e.getMessage());
      return;
    }
    JsonObject request = message().put("source", source).put("titleId", titleId).put("follow", follow);
    if (language != null) {
      request.put("language", language);
    }
    ask(ctx, Addresses.SCRAPER_FOLLOWS_SET, request, timeoutMs, Function.identity());
  }

  private static JsonObject message() {
    return new JsonObject().put("v", VERSION);
  }

  private long siteTimeout() {
    return Math.max(timeoutMs, SITE_TIMEOUT_MS);
  }

  private Future<Message<JsonObject>> request(String address, JsonObject body, long timeout) {
    return vertx.eventBus().request(address, body, new DeliveryOptions().setSendTimeout(timeout));
  }

  /** Forwards a request and answers 200 with the reply (without its {@code v}), shaped by {@code shape}. */
  private void ask(RoutingContext ctx, String address, JsonObject body, long timeout,
      Function<JsonObject, JsonObject> shape) {
    request(address, body, timeout).onFailure(t -> answerFailure(ctx, t, timeout)).onSuccess(reply -> {
      JsonObject answer = reply.body().copy();
      answer.remove("v");
      ctx.json(shape.apply(answer));
    });
  }

  private void answerFailure(RoutingContext ctx, Throwable t, long timeout) {
    ApiReplies.scraperFailure(ctx, t, timeout);
  }
}
