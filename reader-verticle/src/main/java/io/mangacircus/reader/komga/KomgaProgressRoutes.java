package io.mangacircus.reader.komga;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The Komga API's reading progress, mounted at {@link KomgaRoutes#MOUNT} beside it, through the reader's
 * {@link ProgressRecorder} (what the browser reader shows): Mihon's Komga tracker ({@code GET} and {@code PUT
 * /api/v2/series/{id}/read-progress/tachiyomi}, mihonapp/mihon {@code app/src/main/java/eu/kanade/tachiyomi/data/
 * track/komga/KomgaApi.kt} and {@code KomgaModels.kt}) and a book's progress ({@code PATCH} and {@code DELETE
 * /api/v1/books/{id}/read-progress}). Statuses, bodies and rules as gotson/komga {@code komga/src/main/kotlin/org/
 * gotson/komga/interfaces/api/rest/SeriesController.kt} and {@code BookController.kt}: 204 on a change, Komga's 400 and
 * 404 error shape otherwise.
 */
public final class KomgaProgressRoutes {

  /** Komga's progress bodies are a few keys; read before the access guard (ReaderVerticle), as the API's bodies are. */
  public static final long MAX_BODY_BYTES = 4096;

  private final Vertx vertx;
  private final LibraryFiles files;
  private final ProgressStore store;
  private final ProgressRecorder recorder;
  private final InstantSource clock;

  public KomgaProgressRoutes(Vertx vertx, LibraryFiles files, ProgressStore store, ProgressRecorder recorder,
      InstantSource clock) {
    this.vertx = vertx;
    this.files = files;
    this.store = store;
    this.recorder = recorder;
    this.clock = clock;
  }

  /** The routes, relative to {@link KomgaRoutes#MOUNT}. */
  public Router router() {
    Router router = Router.router(vertx);
    String tracker = "/api/v2/series/:series/read-progress/tachiyomi";
    String book = "/api/v1/books/:book/read-progress";
    AccessGuard.appReadable(router.get(tracker)).handler(this::handleTracker);
    AccessGuard.appProgress(router.put(tracker)).handler(this::handleTrackerUpdate);
    AccessGuard.appProgress(router.patch(book)).handler(this::handleBookUpdate);
    AccessGuard.appProgress(router.delete(book)).handler(this::handleBookClear);
    return router;
  }

  /** {@code TachiyomiReadProgressV2Dto} of the series for the user. */
  private void handleTracker(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    if (!LibraryFiles.validId(seriesId)) {
      KomgaErrors.notFound(ctx, clock);
      return;
    }
    long user = user(ctx);
    blocking(ctx, () -> KomgaReading.tracker(files.chapters(seriesId), store.readChapters(user, seriesId),
        store.progress(user, seriesId).orElse(null)), ctx::json);
  }

  /**
   * {@code {lastBookNumberSortRead}}: every chapter whose number sort is at most it is marked read, as Komga does; a
   * number beyond the last chapter marks them all (Komga compares, it does not refuse), never unmarks one.
   */
  private void handleTrackerUpdate(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    if (!LibraryFiles.validId(seriesId)) {
      KomgaErrors.notFound(ctx, clock);
      return;
    }
    JsonObject body = body(ctx);
    if (body == null || !(body.getValue("lastBookNumberSortRead") instanceof Number number)
        || !Float.isFinite(number.floatValue())) {
      KomgaErrors.badRequest(ctx, clock, "send {\"lastBookNumberSortRead\": <a chapter's numberSort>}");
      return;
    }
    long user = user(ctx);
    blocking(ctx, () -> {
      List<LibraryFiles.Chapter> chapters = files.chapters(seriesId);
      recorder.markRead(user, seriesId, KomgaReading.upTo(chapters, number.floatValue()));
      return true;
    }, done -> ctx.response().setStatusCode(204).end());
  }

  /**
   * {@code {page, completed}}: {@code completed: true} finishes the chapter (its last page; a page sent with it is
   * ignored, as by Komga), else the position moves to {@code page} (from 1, within the chapter), which finishes the
   * chapter when it is the last. Either key may be absent, not both.
   */
  private void handleBookUpdate(RoutingContext ctx) {
    Optional<KomgaIds.ChapterRef> ref = KomgaIds.chapter(ctx.pathParam("book"));
    if (ref.isEmpty()) {
      KomgaErrors.notFound(ctx, clock);
      return;
    }
    JsonObject body = body(ctx);
    Object page = body == null ? null : body.getValue("page");
    Object completed = body == null ? null : body.getValue("completed");
    boolean finish = Boolean.TRUE.equals(completed);
    if (body == null || (completed != null && !(completed instanceof Boolean))
        || (!finish && !(page instanceof Integer)) || (page != null && !(page instanceof Integer))) {
      KomgaErrors.badRequest(ctx, clock, "page must be specified if completed is false or null");
      return;
    }
    long user = user(ctx);
    String seriesId = ref.get().seriesId();
    String chapterId = ref.get().chapterId();
    blocking(ctx, () -> finish ? recorder.complete(user, seriesId, chapterId)
        : recorder.save(user, seriesId, chapterId, (Integer) page), saved -> ctx.response().setStatusCode(204).end());
  }

  /** Marks the chapter unread and forgets the position in it. */
  private void handleBookClear(RoutingContext ctx) {
    Optional<KomgaIds.ChapterRef> ref = KomgaIds.chapter(ctx.pathParam("book"));
    if (ref.isEmpty()) {
      KomgaErrors.notFound(ctx, clock);
      return;
    }
    long user = user(ctx);
    blocking(ctx, () -> {
      recorder.clear(user, ref.get().seriesId(), ref.get().chapterId());
      return true;
    }, done -> ctx.response().setStatusCode(204).end());
  }

  private static long user(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    return session.userId();
  }

  /** The request's JSON object, or null when it is none. */
  private static JsonObject body(RoutingContext ctx) {
    try {
      return ctx.body().length() == 0 ? null : ctx.body().asJsonObject();
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  /** Blocking work off the loop; a library miss answers Komga's 404, a page outside the chapter its 400. */
  private <T> void blocking(RoutingContext ctx, Callable<T> work, java.util.function.Consumer<T> answer) {
    vertx.executeBlocking(work, false).onComplete(ar -> {
      if (ar.succeeded()) {
        answer.accept(ar.result());
      } else if (ar.cause() instanceof LibraryFiles.NotFoundException) {
        KomgaErrors.notFound(ctx, clock);
      } else if (ar.cause() instanceof IllegalArgumentException) {
        KomgaErrors.badRequest(ctx, clock, ar.cause().getMessage());
      } else {
        ApiReplies.failure(ctx, ar.cause());
      }
    });
  }
}
