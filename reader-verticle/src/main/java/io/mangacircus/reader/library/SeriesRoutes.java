package io.mangacircus.reader.library;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.catalog.CatalogStore;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.HttpDates;
import io.mangacircus.reader.http.SendCork;
import io.mangacircus.reader.store.LibraryVisit;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Series, chapter and page routes: the library list, the series with this user's read state, a chapter's pages and
 * neighbours, page files with {@code sendFile} and validators, a chapter as a CBZ download, and read marks.
 */
public final class SeriesRoutes {

  /** Caching of page images: a published page never changes. */
  public static final String PAGE_CACHE = "private, max-age=31536000, immutable";

  /** How long the first {@code GET /api/series} of a reader without a kept inventory waits for the first scan. */
  static final java.time.Duration FIRST_SCAN_WAIT = java.time.Duration.ofSeconds(10);

  /** After this, such an answer shows what the first scan has found so far (marked partial) rather than waiting on. */
  static final java.time.Duration PARTIAL_AFTER = java.time.Duration.ofSeconds(1);

  /** Series per page of {@code GET /api/series?page=}: the default and the most. */
  static final int PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 500;

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final LibraryFiles files;
  private final ProgressStore database;
  private final CatalogStore catalog;
  private final InstantSource clock;
  private final CbzDownload download;
  /** A partial list was answered: later requests during that first scan get the list found so far at once. */
  private volatile boolean partialAnswered;

  /**
   * @param inventory the library list, kept current by the reader
   * @param download sends a chapter as a CBZ
   */
  public SeriesRoutes(Vertx vertx, LibraryInventory inventory, LibraryFiles files, ProgressStore database,
      CatalogStore catalog, InstantSource clock, CbzDownload download) {
    this.vertx = vertx;
    this.download = download;
    this.inventory = inventory;
    this.files = files;
    this.database = database;
    this.catalog = catalog;
    this.clock = clock;
  }

  /** The list's sorted orders, kept until the inventory's list changes (every page of the grid and shelf asks). */
  private final SeriesOrders orders = new SeriesOrders();

  /** Where {@link #router} is mounted and {@link #routePages} routes page images. */
  public static final String MOUNT = "/api/series";

  /**
   * The page-image route, {@code GET /api/series/:series/chapters/:chapter/pages/:page} (a session, or an app
   * password), declared on {@code router} itself rather than in {@link #router}: page images are most of the reader's
   * requests, and each sub-router a request enters costs it a wrapped routing context and another walk of routes.
   */
  public void routePages(Router router) {
    AccessGuard.appReadable(router.get(MOUNT + "/:series/chapters/:chapter/pages/:page")).handler(this::handlePage);
  }

  /**
   * The other routes, mounted at {@link #MOUNT}; they need the session the access guard found (covers and CBZ
   * downloads: or an app password).
   */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/").handler(this::handleList);
    router.post("/visit").handler(this::handleVisit);
    router.get("/:series").handler(this::handleSeries);
    AccessGuard.appReadable(router.get("/:series/cover")).handler(this::handleCover);
    // Before the chapter's own route, which would take "chapter-0001.cbz" for a chapter id.
    AccessGuard.appReadable(router.get("/:series/chapters/:chapter.cbz")).handler(download::handle);
    router.get("/:series/chapters/:chapter").handler(this::handleChapter);
    router.put("/:series/chapters/:chapter/read").handler(this::handleReadMark);
    return router;
  }

  /**
   * {@code GET /api/series?q=&sort=title|updated|added&collection=&page=&size=}: the library list (or one page of it;
   * or a collection's members, {@link SeriesSelection}), answered at once
   * from the inventory; only before this process has any inventory (no kept one, first scan still running) it waits
   * for that scan, for at most {@link #PARTIAL_AFTER}, then answers with the series found so far ({@code partial})
   * as soon as there is one, and after {@link #FIRST_SCAN_WAIT} whatever there is; once a partial list was answered,
   * later requests during that scan get the list found so far at once.
   */
  private void handleList(RoutingContext ctx) {
    Paging paging = Paging.of(ctx);
    SeriesSelection selection = paging == null ? null : selection(ctx);
    if (selection == null) {
      return;
    }
    java.util.concurrent.CompletableFuture<LibraryInventory.Summary> first = inventory.firstAnswer();
    if (first.isDone() || partialAnswered && inventory.firstSeries().isDone()) {
      answerList(ctx, inventory.summary(), paging, selection);
      return;
    }
    io.vertx.core.Context context = vertx.getOrCreateContext();
    io.vertx.core.Future<LibraryInventory.Summary> whole = io.vertx.core.Future.fromCompletionStage(first, context);
    io.vertx.core.Future<LibraryInventory.Summary> partial = vertx.timer(PARTIAL_AFTER.toMillis())
        .compose(v -> io.vertx.core.Future.fromCompletionStage(inventory.firstSeries(), context));
    io.vertx.core.Future.any(whole, partial)
        .timeout(FIRST_SCAN_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .onComplete(ar -> {
          if (!ctx.response().ended() && !ctx.response().closed()) {
            answerList(ctx, inventory.summary(), paging, selection);
          }
        });
  }

  /**
   * The request's search, sort and collection; null after a 404 (unknown collection). A sort it does not know is
   * ignored (title order), as before there were several.
   */
  private SeriesSelection selection(RoutingContext ctx) {
    String asked = ctx.request().getParam("sort");
    String sort = asked != null && SeriesSelection.SORTS.contains(asked) ? asked : null;
    String query = ctx.request().getParam("q", "").trim().toLowerCase(java.util.Locale.ROOT);
    String collection = ctx.request().getParam("collection");
    if (collection == null) {
      return new SeriesSelection(query, sort == null ? "title" : sort, null);
    }
    Optional<CatalogStore.Collection> found = catalog.collection(collection);
    if (found.isEmpty()) {
      ApiReplies.error(ctx, 404, "not_found", "no collection " + collection);
      return null;
    }
    return new SeriesSelection(query, sort, found.get().series());
  }

  /** The page asked for: {@code page} from 1 (none: the whole list) of {@code size} series; null after a 400. */
  private record Paging(int page, int size) {
    static Paging of(RoutingContext ctx) {
      String page = ctx.request().getParam("page");
      String size = ctx.request().getParam("size");
      if (page == null && size == null) {
        return new Paging(0, 0);
      }
      try {
        int p = page == null ? 1 : Integer.parseInt(page);
        int s = size == null ? PAGE_SIZE : Integer.parseInt(size);
        if (p >= 1 && s >= 1 && s <= MAX_PAGE_SIZE) {
          return new Paging(p, s);
        }
      } catch (NumberFormatException e) {
        // answered below
      }
      ApiReplies.error(ctx, 400, "bad_request", "page is a whole number from 1 and size one from 1 to " + MAX_PAGE_SIZE);
      return null;
    }

    boolean all() {
      return page == 0;
    }
  }

  /**
   * The list with this user's reading summary per series ({@code unread}, {@code read}, {@code newSince},
   * {@code addedAt}; docs/api.md): the user's read marks and library visit are read from the database off the loop.
   */
  private void answerList(RoutingContext ctx, LibraryInventory.Summary summary, Paging paging,
      SeriesSelection selection) {
    if (summary.partial() && !summary.series().isEmpty()) {
      partialAnswered = true;
    }
    Session session = ctx.get(AccessGuard.SESSION);
    java.util.Map<String, java.util.Map<String, Instant>> times = inventory.chapterTimes();
    blocking(ctx, () -> new UserMarks(database.readChapters(session.userId()),
        database.libraryVisit(session.userId()).map(LibraryVisit::since).orElse(null)),
        marks -> answerList(ctx, summary, times, marks, paging, selection, orders));
  }

  private record UserMarks(java.util.Map<String, Set<String>> read, Instant since) {
  }

  private static void answerList(RoutingContext ctx, LibraryInventory.Summary summary,
      java.util.Map<String, java.util.Map<String, Instant>> times, UserMarks marks, Paging paging,
      SeriesSelection selection, SeriesOrders orders) {
    List<SeriesEntry> matching = selection.apply(summary.series(), times, orders);
    List<SeriesEntry> shown = matching;
    if (!paging.all()) {
      long from = Math.min((long) (paging.page() - 1) * paging.size(), matching.size());
      shown = matching.subList((int) from, (int) Math.min(from + paging.size(), matching.size()));
    }
    JsonArray list = new JsonArray();
    shown.forEach(s -> {
      Set<String> read = marks.read().getOrDefault(s.id(), Set.of());
      java.util.Map<String, Instant> chapters = times == null ? null : times.get(s.id());
      io.mangacircus.reader.shelves.ReadingCounts counts = chapters == null
          ? io.mangacircus.reader.shelves.ReadingCounts.estimated(s.chapters(), read.size())
          : io.mangacircus.reader.shelves.ReadingCounts.of(chapters, read, marks.since());
      list.add(new JsonObject().put("id", s.id()).put("title", s.title()).put("source", s.source())
          .put("titleId", s.titleId()).put("chapters", s.chapters()).put("updatedAt", s.updatedAt().toString())
          .put("read", counts.read()).put("unread", counts.unread()).put("newSince", counts.newSince())
          .put("addedAt", text(counts.addedAt())));
    });
    JsonObject answer = new JsonObject().put("libraryStatus", summary.status().wire())
        .put("scannedAt", summary.scannedAt() == null ? null : summary.scannedAt().toString())
        .put("partial", summary.partial()).put("error", summary.error()).put("since", text(marks.since()))
        .put("total", matching.size());
    if (!paging.all()) {
      answer.put("page", paging.page()).put("size", paging.size());
    }
    ctx.json(answer.put("series", list));
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

  private void handleSeries(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    if (badIds(ctx, seriesId)) {
      return;
    }
    blocking(ctx, () -> {
      List<LibraryFiles.Chapter> chapters = files.chapters(seriesId);
      Set<String> read = database.readChapters(session.userId(), seriesId);
      Optional<Progress> progress = database.progress(session.userId(), seriesId);
      CatalogStore.SeriesMeta meta = catalog.series(seriesId);
      LibraryFiles.Chapter first = chapters.get(0);
      Instant updated = chapters.stream().map(LibraryFiles.Chapter::publishedAt).filter(java.util.Objects::nonNull)
          .max(Instant::compareTo).orElse(null);
      JsonArray list = new JsonArray();
      for (LibraryFiles.Chapter chapter : chapters) {
        boolean isRead = read.contains(chapter.id());
        boolean reading = !isRead && progress.filter(p -> p.chapter().equals(chapter.id())).isPresent();
        list.add(new JsonObject().put("id", chapter.id()).put("number", chapter.number()).put("title", chapter.title())
            .put("pages", chapter.pages().size()).put("publishedAt", text(chapter.publishedAt()))
            .put("state", isRead ? "read" : reading ? "reading" : "unread")
            .put("page", reading ? progress.get().page() : null));
      }
      return new JsonObject().put("id", seriesId).put("title", first.seriesTitle()).put("source", first.source())
          .put("titleId", first.titleId()).put("sourceUrl", sourceUrl(first.source(), first.titleId()))
          .put("updatedAt", text(updated)).put("description", meta.description())
          .put("tags", new JsonArray(meta.tags())).put("cover", "/api/series/" + seriesId + "/cover")
          .put("progress", progress.map(p -> new JsonObject().put("chapter", p.chapter()).put("page", p.page())
              .put("updatedAt", p.updatedAt().toString())).orElse(null))
          .put("chapters", list);
    }, ctx::json);
  }

  private void handleChapter(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (badIds(ctx, seriesId, chapterId)) {
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

  private void handlePage(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (badIds(ctx, seriesId, chapterId)) {
      return;
    }
    int page;
    try {
      page = Integer.parseInt(ctx.pathParam("page"));
    } catch (NumberFormatException e) {
      ApiReplies.error(ctx, 400, "bad_request", "a page number is a whole number from 1");
      return;
    }
    Optional<LibraryFiles.Chapter> known = files.cached(seriesId, chapterId);
    if (known.isPresent()) {
      sendPage(ctx, known.get(), page, PAGE_CACHE);
    } else {
      blocking(ctx, () -> files.chapter(seriesId, chapterId), chapter -> sendPage(ctx, chapter, page, PAGE_CACHE));
    }
  }

  private void handleCover(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    if (badIds(ctx, seriesId)) {
      return;
    }
    blocking(ctx, () -> files.chapters(seriesId).get(0), chapter -> sendPage(ctx, chapter, 1, "private, max-age=300"));
  }

  /** Sends one page file (1-based {@code index}); 304 when the client's copy is current. */
  public static void sendPage(RoutingContext ctx, LibraryFiles.Chapter chapter, int index, String cacheControl) {
    if (index < 1 || index > chapter.pages().size()) {
      ApiReplies.error(ctx, 404, "not_found", "chapter " + chapter.id() + " has pages 1 to " + chapter.pages().size());
      return;
    }
    LibraryFiles.Page page = chapter.pages().get(index - 1);
    String tag = page.sha256().isEmpty()
        ? chapter.id() + "-" + index + "-" + (chapter.publishedAt() == null ? 0 : chapter.publishedAt().toEpochMilli())
        : page.sha256();
    ctx.etag("\"" + tag + "\"");
    if (chapter.publishedAt() != null) {
      ctx.lastModified(HttpDates.format(chapter.publishedAt()));
    }
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, cacheControl);
    if (ctx.isFresh()) {
      ctx.response().setStatusCode(304).end();
      return;
    }
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, page.mediaType());
    // The file is opened here rather than by sendFile(String): the path is already resolved inside the library, and
    // Vert.x's file resolver would stat it twice more per request (exists, canonical) before opening it anyway. A
    // FileChannel, not a RandomAccessFile: that one's open stats the file once more (is it a folder?) and Vert.x asks
    // its length again; here the one fstat is Vert.x's size() (manifest page paths are regular files, LibraryFiles).
    FileChannel file;
    try {
      file = FileChannel.open(page.file(), StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      gone(ctx, chapter, index);
      return;
    }
    // Headers and file in full segments together on a native connection (nginx's tcp_nopush); see SendCork.
    SendCork cork = ctx.request().version() == HttpVersion.HTTP_2 ? null : SendCork.hold(ctx.request().connection());
    ctx.response().sendFile(file, 0, Long.MAX_VALUE).onComplete(ar -> {
      if (cork != null) {
        cork.release();
      }
      closeQuietly(file);
      if (ar.failed()) {
        if (!ctx.response().headWritten()) {
          gone(ctx, chapter, index);
        } else {
          ctx.response().reset();
        }
      }
    });
  }

  private static void gone(RoutingContext ctx, LibraryFiles.Chapter chapter, int index) {
    ctx.response().headers().remove(HttpHeaders.CACHE_CONTROL).remove(HttpHeaders.ETAG)
        .remove(HttpHeaders.LAST_MODIFIED).remove(HttpHeaders.CONTENT_TYPE);
    ApiReplies.error(ctx, 404, "not_found", "page " + index + " of " + chapter.id() + " is gone");
  }

  private static void closeQuietly(FileChannel file) {
    try {
      file.close();
    } catch (IOException e) {
      // read-only: nothing was lost
    }
  }

  private void handleReadMark(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (badIds(ctx, seriesId, chapterId)) {
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

  /** Answers 400 and returns true when an id cannot name a library folder. */
  static boolean badIds(RoutingContext ctx, String... ids) {
    for (String id : ids) {
      if (!LibraryFiles.validId(id)) {
        ApiReplies.error(ctx, 400, "bad_request", "not a series or chapter id");
        return true;
      }
    }
    return false;
  }

  private <T> void blocking(RoutingContext ctx, Callable<T> work, java.util.function.Consumer<T> answer) {
    ApiReplies.blocking(vertx, ctx, work, answer);
  }


  /**
   * The title's page at its source, when the reader can tell: a MangaDex title, or a title id that is itself an
   * http(s) address; else null.
   */
  static String sourceUrl(String source, String titleId) {
    if (titleId == null || titleId.isBlank()) {
      return null;
    }
    if (titleId.startsWith("https://") || titleId.startsWith("http://")) {
      return titleId;
    }
    if ("mangadex".equals(source) && titleId.matches("[0-9a-fA-F-]{36}")) {
      return "https://mangadex.org/title/" + titleId;
    }
    return null;
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
