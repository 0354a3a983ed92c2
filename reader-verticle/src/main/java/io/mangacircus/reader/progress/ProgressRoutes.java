package io.mangacircus.reader.progress;

import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** {@code GET /api/progress} ("Continue reading") and {@code PUT /api/progress/:series}: one position per series. */
public final class ProgressRoutes {

  /** How many series "Continue reading" lists at most. */
  public static final int CONTINUE_LIMIT = 24;

  private final Vertx vertx;
  private final LibraryFiles files;
  private final ProgressStore store;
  private final ProgressRecorder recorder;

  public ProgressRoutes(Vertx vertx, LibraryFiles files, ProgressStore store, InstantSource clock) {
    this.vertx = vertx;
    this.files = files;
    this.store = store;
    this.recorder = new ProgressRecorder(files, store, clock);
  }

  /** The routes, mounted at {@code /api/progress}; they need the session the access guard found. */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/").handler(this::handleList);
    router.put("/:series").handler(this::handleSave);
    return router;
  }

  private void handleList(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    VisibleSeries.Viewer viewer = VisibleSeries.viewer(ctx);
    ApiReplies.blocking(vertx, ctx, () -> {
      JsonArray list = new JsonArray();
      for (Progress p : store.progress(session.userId())) {
        if (list.size() >= CONTINUE_LIMIT) {
          break;
        }
        if (!viewer.sees(p.series())) {
          continue;
        }
        try {
          LibraryFiles.Chapter chapter = files.chapter(p.series(), p.chapter());
          list.add(new JsonObject().put("series", p.series()).put("seriesTitle", chapter.seriesTitle())
              .put("chapter", p.chapter()).put("chapterNumber", chapter.number()).put("page", p.page())
              .put("pages", chapter.pages().size()).put("updatedAt", p.updatedAt().toString()));
        } catch (LibraryFiles.NotFoundException | IllegalArgumentException e) {
          // the chapter left the library: nothing to continue
        }
      }
      return new JsonObject().put("progress", list);
    }, ctx::json);
  }

  private void handleSave(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"chapter\": \"chapter-0001\", \"page\": 1}");
    if (body.isEmpty()) {
      return;
    }
    if (!(body.get().getValue("chapter") instanceof String chapterId) || !LibraryFiles.validId(seriesId)
        || !LibraryFiles.validId(chapterId) || !(body.get().getValue("page") instanceof Integer page)) {
      ApiReplies.error(ctx, 400, "bad_request", "send {\"chapter\": \"<chapter id>\", \"page\": <1-based page>}");
      return;
    }
    Instant readAt;
    try {
      readAt = body.get().getValue("at") == null ? null : Instant.parse(body.get().getString("at"));
    } catch (ClassCastException | DateTimeParseException e) {
      ApiReplies.error(ctx, 400, "bad_request", "\"at\" is when the page was read, an ISO-8601 instant such as "
          + "\"2026-11-29T10:02:00Z\"");
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> {
      ProgressRecorder.Saved saved = readAt == null ? recorder.save(session.userId(), seriesId, chapterId, page)
          : recorder.saveReadAt(session.userId(), seriesId, chapterId, page, readAt);
      return new JsonObject().put("series", seriesId).put("chapter", saved.chapter()).put("page", saved.page())
          .put("updatedAt", saved.updatedAt().toString()).put("chapterRead", saved.chapterRead())
          .put("moved", saved.moved());
    }, ctx::json);
  }
}
