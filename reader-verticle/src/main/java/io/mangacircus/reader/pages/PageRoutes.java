package io.mangacircus.reader.pages;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryIds;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * Page images: the browser reader's, {@code GET /api/series/:series/chapters/:chapter/pages/:page} (a session, or an
 * app password; a chapter whose manifest is cached is answered without leaving the event loop), and series covers
 * (the first page of the first chapter) for the series and OPDS routes that mount {@link #handleCover}.
 */
public final class PageRoutes {

  /** The page-image path, under the series routes' mount point ({@code SeriesRoutes.MOUNT}). */
  public static final String PATH = "/api/series/:series/chapters/:chapter/pages/:page";

  private final Vertx vertx;
  private final LibraryFiles files;

  public PageRoutes(Vertx vertx, LibraryFiles files) {
    this.vertx = vertx;
    this.files = files;
  }

  /**
   * Declares the page-image route on {@code router} itself, not in a sub-router: page images are most of the reader's
   * requests, and each sub-router a request enters costs it a wrapped routing context and another walk of routes.
   * Declare it before the series sub-router is mounted.
   */
  public void route(Router router) {
    AccessGuard.appReadable(router.get(PATH)).handler(this::handlePage);
  }

  private void handlePage(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (LibraryIds.refused(ctx, seriesId, chapterId)) {
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
      PageResponses.send(ctx, known.get(), page, PageResponses.PAGE_CACHE);
    } else {
      ApiReplies.blocking(vertx, ctx, () -> files.chapter(seriesId, chapterId),
          chapter -> PageResponses.send(ctx, chapter, page, PageResponses.PAGE_CACHE));
    }
  }

  /** A series cover, on a route with a {@code :series} parameter: the first page of its first chapter. */
  public void handleCover(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    if (LibraryIds.refused(ctx, seriesId)) {
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> files.chapters(seriesId).get(0),
        chapter -> PageResponses.send(ctx, chapter, 1, PageResponses.COVER_CACHE));
  }
}
