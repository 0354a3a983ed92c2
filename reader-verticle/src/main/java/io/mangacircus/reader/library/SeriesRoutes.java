package io.mangacircus.reader.library;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.store.LibraryVisit;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import io.mangacircus.reader.library.metadata.SeriesMetadataMerge;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Series and chapter routes: the library list ({@link SeriesListRoute}), the series with this user's read state, a
 * chapter's pages and neighbours, a chapter as a CBZ download, and read marks. Page images and the series cover are
 * served by page serving ({@code reader.pages}), whose handlers are given to these routes.
 */
public final class SeriesRoutes {

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final LibraryFiles files;
  private final ProgressStore database;
  private final KeptCatalog catalog;
  private final InstantSource clock;
  private io.mangacircus.reader.library.providers.ProviderMetadataStore provided;
  private final CbzDownload download;
  private final Handler<RoutingContext> cover;
  private final SourceLinks links;
  private final io.mangacircus.reader.library.metadata.SourceMetadataFiles sourceMetadata =
      new io.mangacircus.reader.library.metadata.SourceMetadataFiles();

  /**
   * @param inventory the library list, kept current by the reader
   * @param download sends a chapter as a CBZ
   * @param cover answers {@code GET /:series/cover} (page serving's)
   * @param links a series' link to its title's page at the source
   */
  public SeriesRoutes(Vertx vertx, LibraryInventory inventory, LibraryFiles files, ProgressStore database,
      KeptCatalog catalog, InstantSource clock, CbzDownload download, Handler<RoutingContext> cover,
      SourceLinks links) {
    this.vertx = vertx;
    this.download = download;
    this.cover = cover;
    this.links = links;
    this.inventory = inventory;
    this.files = files;
    this.database = database;
    this.catalog = catalog;
    this.clock = clock;
  }

  /**
   * Fills what a series' own metadata lacks from what an admin applied from a metadata provider
   * ({@code data/series-metadata.json}); never above the admin's catalog or the books' ComicInfo.
   */
  public SeriesRoutes withProviderMetadata(io.mangacircus.reader.library.providers.ProviderMetadataStore provided) {
    this.provided = provided;
    return this;
  }

  /** A series' applied provider metadata; none when there is none or the file cannot be read (logged). */
  private io.mangacircus.reader.library.metadata.SeriesMetadata provided(String seriesId) {
    if (provided == null) {
      return null;
    }
    try {
      return provided.series(seriesId).map(a -> a.metadata()).orElse(null);
    } catch (io.mangacircus.contracts.CorruptStateFileException e) {
      org.slf4j.LoggerFactory.getLogger(SeriesRoutes.class).warn("[LIBRARY] {}: series pages show no provider "
          + "metadata until it is repaired", e.getMessage());
      return null;
    }
  }

  /** Where {@link #router} is mounted; page images are routed under it too. */
  public static final String MOUNT = "/api/series";

  /**
   * The other routes, mounted at {@link #MOUNT}; they need the session the access guard found (covers and CBZ
   * downloads: or an app password).
   */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/").handler(new SeriesListRoute(vertx, inventory, database, catalog));
    router.post("/visit").handler(this::handleVisit);
    router.get("/:series").handler(this::handleSeries);
    AccessGuard.appReadable(router.get("/:series/cover")).handler(cover);
    // Before the chapter's own route, which would take "chapter-0001.cbz" for a chapter id.
    AccessGuard.appReadable(router.get("/:series/chapters/:chapter.cbz")).handler(download::handle);
    router.get("/:series/chapters/:chapter").handler(this::handleChapter);
    router.put("/:series/chapters/:chapter/read").handler(this::handleReadMark);
    return router;
  }

  /**
   * {@code POST /api/series/visit}: the library page was opened; answers {@code {since, lastVisitAt}}, the cutoff of
   * "new" for this visit ({@link io.mangacircus.reader.shelves.LibraryVisits}).
   */
  private void handleVisit(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    blocking(ctx, () -> {
      LibraryVisit visit = io.mangacircus.reader.shelves.LibraryVisits.next(
          database.libraryVisit(session.userId()), clock.instant());
      database.saveLibraryVisit(session.userId(), visit);
      return new JsonObject().put("since", text(visit.since())).put("lastVisitAt", text(visit.lastAt()));
    }, ctx::json);
  }

  /**
   * {@code GET /api/series/:series}: the series with this user's read state. A series others were merged into lists
   * their chapters after its own, each with the id of the series that holds it ({@code series}), under which its
   * pages, CBZ and read mark are served; a merged series answers as itself with {@code mergedInto} naming the series
   * that shows it.
   */
  private void handleSeries(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    if (LibraryIds.refused(ctx, seriesId)) {
      return;
    }
    VisibleSeries.Viewer viewer = VisibleSeries.viewer(ctx);
    List<String> parts = viewer.parts(seriesId);
    String mergedInto = viewer.mergedInto(seriesId).orElse(null);
    blocking(ctx, () -> {
      List<LibraryFiles.Chapter> chapters = files.chapters(seriesId);
      Optional<Progress> progress = database.progress(session.userId(), seriesId);
      CatalogStore.SeriesMeta meta = catalog.series(seriesId);
      List<BookComicInfo> books = files.comicInfo(chapters.get(0));
      // A collection's rating comes from the same books; a downloaded series' from the inventory, as access reads it.
      AgeRating filesRating = files.inCollection(seriesId) ? SeriesMetadataMerge.rating(null, null, books).rating()
          : inventory.entry(seriesId).map(SeriesEntry::rating).orElse(AgeRating.UNRATED);
      LibraryFiles.Chapter first = chapters.get(0);
      JsonArray list = new JsonArray();
      Instant updated = rows(list, chapters, database.readChapters(session.userId(), seriesId), progress);
      for (String part : parts) {
        List<LibraryFiles.Chapter> partChapters;
        try {
          partChapters = files.chapters(part);
        } catch (LibraryFiles.NotFoundException e) {
          continue;   // its files went since the last scan: the next one drops it from the merge's parts
        }
        Instant partUpdated = rows(list, partChapters, database.readChapters(session.userId(), part),
            database.progress(session.userId(), part));
        updated = updated == null || partUpdated != null && partUpdated.isAfter(updated) ? partUpdated : updated;
      }
      return new JsonObject().put("id", seriesId).put("title", first.seriesTitle()).put("source", first.source())
          .put("titleId", first.titleId()).put("sourceUrl", null)
          .put("updatedAt", text(updated)).put("description", meta.description())
          .put("tags", new JsonArray(meta.tags())).put("cover", "/api/series/" + seriesId + "/cover")
          .put("progress", progress.map(p -> new JsonObject().put("chapter", p.chapter()).put("page", p.page())
              .put("updatedAt", p.updatedAt().toString())).orElse(null))
          .put("metadata", SeriesMetadataReply.of(meta, files.inCollection(seriesId) ? null
              : sourceMetadata.series(files.seriesFolder(seriesId)), books, filesRating, provided(seriesId)))
          .put("mergedInto", mergedInto).put("merged", new JsonArray(parts))
          .put("chapters", list);
    }, series -> links.titleUrl(series.getString("source"), series.getString("titleId"))
        .onComplete(ar -> ctx.json(series.put("sourceUrl", ar.result()))));
  }

  /** Adds one series' chapters to {@code list} with this user's state; answers when its newest was published. */
  private static Instant rows(JsonArray list, List<LibraryFiles.Chapter> chapters, Set<String> read,
      Optional<Progress> progress) {
    Instant updated = null;
    for (LibraryFiles.Chapter chapter : chapters) {
      boolean isRead = read.contains(chapter.id());
      boolean reading = !isRead && progress.filter(p -> p.chapter().equals(chapter.id())).isPresent();
      list.add(new JsonObject().put("id", chapter.id()).put("series", chapter.seriesId())
          .put("number", chapter.number()).put("title", chapter.title())
          .put("pages", chapter.pages().size()).put("publishedAt", text(chapter.publishedAt()))
          .put("state", isRead ? "read" : reading ? "reading" : "unread")
          .put("page", reading ? progress.get().page() : null));
      if (chapter.publishedAt() != null && (updated == null || chapter.publishedAt().isAfter(updated))) {
        updated = chapter.publishedAt();
      }
    }
    return updated;
  }

  private void handleChapter(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (LibraryIds.refused(ctx, seriesId, chapterId)) {
      return;
    }
    blocking(ctx, () -> {
      LibraryFiles.Chapter chapter = files.chapter(seriesId, chapterId);
      List<LibraryFiles.Chapter> all = files.chapters(seriesId);
      int at = indexOf(all, chapterId);
      Optional<Progress> progress = database.progress(session.userId(), seriesId)
          .filter(p -> p.chapter().equals(chapterId));
      String base = "/api/series/" + seriesId + "/chapters/" + chapterId + "/pages/";
      JsonArray pages = new JsonArray();
      chapter.pages().forEach(p -> pages.add(base + p.index()));
      return new JsonObject()
          .put("series", new JsonObject().put("id", seriesId).put("title", chapter.seriesTitle()))
          .put("id", chapterId).put("number", chapter.number()).put("title", chapter.title())
          .put("pageCount", chapter.pages().size()).put("pages", pages)
          .put("previous", at > 0 ? all.get(at - 1).id() : null)
          .put("next", at >= 0 && at + 1 < all.size() ? all.get(at + 1).id() : null)
          .put("read", database.readChapters(session.userId(), seriesId).contains(chapterId))
          .put("savedPage", progress.map(Progress::page).orElse(null));
    }, ctx::json);
  }

  private static int indexOf(List<LibraryFiles.Chapter> chapters, String chapterId) {
    for (int i = 0; i < chapters.size(); i++) {
      if (chapters.get(i).id().equals(chapterId)) {
        return i;
      }
    }
    return -1;
  }

  private void handleReadMark(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (LibraryIds.refused(ctx, seriesId, chapterId)) {
      return;
    }
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"read\": true|false}");
    if (body.isEmpty()) {
      return;
    }
    if (!(body.get().getValue("read") instanceof Boolean read)) {
      ApiReplies.error(ctx, 400, "bad_request", "send {\"read\": true} or {\"read\": false}");
      return;
    }
    blocking(ctx, () -> {
      files.chapter(seriesId, chapterId);
      database.setRead(session.userId(), seriesId, chapterId, read, clock.instant());
      return new JsonObject().put("chapter", chapterId).put("read", read);
    }, ctx::json);
  }

  private <T> void blocking(RoutingContext ctx, Callable<T> work, java.util.function.Consumer<T> answer) {
    ApiReplies.blocking(vertx, ctx, work, answer);
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}