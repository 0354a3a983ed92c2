package io.mangacircus.reader.komga;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.library.CbzDownload;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.pages.PageResponses;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * The Komga API's books (docs/api.md "Komga API"), mounted at {@link KomgaRoutes#MOUNT}: a book, its page list, page
 * images, its thumbnail and its file, each named by the book id that {@link KomgaIds} makes of a chapter. Every route
 * is app-readable. Shapes as {@link KomgaRoutes} says where they come from.
 */
public final class KomgaBookRoutes {

  private static final String MOUNT = KomgaRoutes.MOUNT;

  private final Vertx vertx;
  private final LibraryFiles files;
  private final InstantSource clock;
  private final io.mangacircus.reader.store.ProgressStore progress;
  private final CbzDownload cbz;

  public KomgaBookRoutes(Vertx vertx, LibraryFiles files, InstantSource clock,
      io.mangacircus.reader.store.ProgressStore progress, CbzDownload cbz) {
    this.vertx = vertx;
    this.files = files;
    this.clock = clock;
    this.progress = progress;
    this.cbz = cbz;
  }

  /** The routes, relative to {@link KomgaRoutes#MOUNT}, but page images ({@link #routePages}). */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.appReadable(router.get("/api/v1/books/:book")).handler(this::handleBook);
    AccessGuard.appReadable(router.get("/api/v1/books/:book/pages")).handler(this::handlePages);
    AccessGuard.appReadable(router.get("/api/v1/books/:book/thumbnail")).handler(this::handleBookThumbnail);
    // The reader's own CBZ download (same bytes, ETag and ranges), for the chapter the book id names.
    AccessGuard.appReadable(router.get("/api/v1/books/:book/file")).handler(ctx -> chapter(ctx)
        .ifPresent(ref -> cbz.handle(ctx, ref.seriesId(), ref.chapterId())));
    return router;
  }

  /**
   * Declares the page-image route ({@code /komga/api/v1/books/:book/pages/:page}) on {@code root} itself, as the
   * reader's own page route is (docs/architecture.md): page images are most of a reading app's requests, and a
   * sub-router costs each of them a wrapped routing context and another walk of routes. Declare it before
   * {@link #router()} is mounted.
   */
  public void routePages(Router root) {
    AccessGuard.appReadable(root.get(MOUNT + "/api/v1/books/:book/pages/:page")).handler(this::handlePage);
  }


  private void handleBook(RoutingContext ctx) {
    Optional<KomgaIds.ChapterRef> ref = chapter(ctx);
    if (ref.isEmpty()) {
      return;
    }
    long user = user(ctx);
    String seriesId = ref.get().seriesId();
    blocking(ctx, () -> {
      List<LibraryFiles.Chapter> chapters = files.chapters(seriesId);
      for (int i = 0; i < chapters.size(); i++) {
        if (chapters.get(i).id().equals(ref.get().chapterId())) {
          return KomgaShapes.book(chapters.get(i), i + 1).put("readProgress", KomgaReading.readProgress(
              chapters.get(i), progress.progress(user, seriesId).orElse(null), progress.readTimes(user, seriesId)));
        }
      }
      throw new LibraryFiles.NotFoundException("no chapter " + ref.get().chapterId());
    }, ctx::json);
  }

  private void handlePages(RoutingContext ctx) {
    Optional<KomgaIds.ChapterRef> ref = chapter(ctx);
    if (ref.isEmpty()) {
      return;
    }
    blocking(ctx, () -> KomgaShapes.pages(files.chapter(ref.get().seriesId(), ref.get().chapterId())), ctx::json);
  }

  /** {@code GET /api/v1/books/{id}/pages/{n}}, {@code n} from 1: the page file as the reader's own pages send it. */
  private void handlePage(RoutingContext ctx) {
    Optional<KomgaIds.ChapterRef> ref = chapter(ctx);
    if (ref.isEmpty()) {
      return;
    }
    int number;
    try {
      number = Integer.parseInt(ctx.pathParam("page"));
    } catch (NumberFormatException e) {
      number = 0;
    }
    if (number < 1) {
      KomgaErrors.badRequest(ctx, clock, "a page number is a whole number from 1");
      return;
    }
    int index = number;
    Optional<LibraryFiles.Chapter> known = files.cached(ref.get().seriesId(), ref.get().chapterId());
    if (known.isPresent()) {
      sendPage(ctx, known.get(), index);
      return;
    }
    blocking(ctx, () -> files.chapter(ref.get().seriesId(), ref.get().chapterId()), chapter -> sendPage(ctx, chapter,
        index));
  }

  private void sendPage(RoutingContext ctx, LibraryFiles.Chapter chapter, int index) {
    if (index > chapter.pages().size()) {
      KomgaErrors.notFound(ctx, clock);
      return;
    }
    PageResponses.send(ctx, chapter, index, PageResponses.PAGE_CACHE);
  }

  /** {@code GET /api/v1/books/{id}/thumbnail}: the chapter's first page, cached as a series cover is. */
  private void handleBookThumbnail(RoutingContext ctx) {
    Optional<KomgaIds.ChapterRef> ref = chapter(ctx);
    if (ref.isEmpty()) {
      return;
    }
    blocking(ctx, () -> files.chapter(ref.get().seriesId(), ref.get().chapterId()),
        chapter -> PageResponses.send(ctx, chapter, 1, PageResponses.COVER_CACHE));
  }

  /** The chapter the {@code :book} id names; empty after a 404. */
  private Optional<KomgaIds.ChapterRef> chapter(RoutingContext ctx) {
    Optional<KomgaIds.ChapterRef> ref = KomgaIds.chapter(ctx.pathParam("book"));
    if (ref.isEmpty()) {
      KomgaErrors.notFound(ctx, clock);
    }
    return ref;
  }


  private <T> void blocking(RoutingContext ctx, Callable<T> work, Consumer<T> answer) {
    KomgaRequests.blocking(vertx, clock, ctx, work, answer);
  }

  private static long user(RoutingContext ctx) {
    return KomgaRequests.user(ctx);
  }
}
