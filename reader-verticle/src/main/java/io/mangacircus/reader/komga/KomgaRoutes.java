package io.mangacircus.reader.komga;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.library.SeriesSelection;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The Komga-compatible reading API that Mihon's Komga source browses, mounted at {@code /komga} (docs/api.md "Komga
 * API"): series (paged, searched, sorted), a series, its books (chapters), a book, its page list, page images and
 * the series' and books' thumbnails; libraries, collections and their series, and the filter lists the source asks for. Every
 * route is app-readable (a session, or an app password over HTTP Basic). Routes, parameters and keys follow the
 * source's own code in keiyoushi/extensions-source
 * {@code src/all/komga/src/eu/kanade/tachiyomi/extension/all/komga/Komga.kt} (requests) and
 * {@code .../komga/dto/Dto.kt}, {@code .../komga/dto/PageWrapperDto.kt} (answers). Progress is read here (books'
 * {@code readProgress}, series' counts, {@code read_status}) and written by {@link KomgaProgressRoutes}.
 */
public final class KomgaRoutes {

  /** Where the API is mounted: the address a user enters in the Komga source. */
  public static final String MOUNT = "/komga";

  /** How long the first series list of a reader without a kept inventory waits for the first scan. */
  private static final long FIRST_SCAN_WAIT_MS = 10_000;

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final LibraryFiles files;
  private final KeptCatalog catalog;
  private final InstantSource clock;
  private final Handler<RoutingContext> cover;
  private final ProgressStore progress;
  private final java.util.function.Supplier<List<String>> libraries;

  /** @param cover answers a series' cover for {@code :series} (page serving's) */
  public KomgaRoutes(Vertx vertx, LibraryInventory inventory, LibraryFiles files, KeptCatalog catalog,
      InstantSource clock, Handler<RoutingContext> cover, ProgressStore progress,
      java.util.function.Supplier<List<String>> libraries) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.files = files;
    this.catalog = catalog;
    this.clock = clock;
    this.cover = cover;
    this.progress = progress;
    this.libraries = libraries;
  }

  /** The routes, relative to {@link #MOUNT}, but page images ({@link #routePages}). */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.appReadable(router.get("/api/v1/series")).handler(this::handleSeriesList);
    AccessGuard.appReadable(router.get("/api/v1/series/:series")).handler(this::handleSeries);
    AccessGuard.appReadable(router.get("/api/v1/series/:series/thumbnail")).handler(this::handleThumbnail);
    AccessGuard.appReadable(router.get("/api/v1/series/:series/books")).handler(this::handleBooks);
    AccessGuard.appReadable(router.get("/api/v1/libraries")).handler(this::handleLibraries);
    AccessGuard.appReadable(router.get("/api/v1/collections")).handler(this::handleCollections);
    AccessGuard.appReadable(router.get("/api/v1/collections/:collection/series")).handler(this::handleSeriesList);
    for (String empty : List.of("genres", "tags", "publishers", "authors")) {
      AccessGuard.appReadable(router.get("/api/v1/" + empty)).handler(ctx -> ctx.json(new JsonArray()));
    }
    return router;
  }

  /**
   * {@code GET /api/v1/series?search=&page=&size=&sort=}: the sorts the source sends ({@code metadata.titleSort},
   * {@code createdDate}, {@code lastModifiedDate}, each {@code ,asc} or {@code ,desc}) as the reader's own list sorts;
   * any other sort (relevance, random) is by title; {@code read_status} (repeated: any of them) by the user's reading.
   * {@code library_id} (repeated, or comma-separated: the source's library filter and default libraries) keeps the
   * series of those libraries; other filters the source adds (genre ...) are not applied: no series has a genre here.
   * Also a collection's series
   * ({@code GET /api/v1/collections/{id}/series}, the source's collection filter), in the collection's order unless a
   * sort is asked for.
   */
  private void handleSeriesList(RoutingContext ctx) {
    KomgaPaging paging = paging(ctx);
    if (paging == null) {
      return;
    }
    String collection = ctx.pathParam("collection");
    List<String> members = null;
    if (collection != null) {
      Optional<CatalogStore.Collection> found = catalog.collection(collection);
      if (found.isEmpty()) {
        KomgaErrors.notFound(ctx, clock);
        return;
      }
      members = found.get().series();
    }
    String search = ctx.request().getParam("search", "").trim().toLowerCase(Locale.ROOT);
    String asked = ctx.request().getParam("sort");
    String[] sort = (asked == null ? "metadata.titleSort,asc" : asked).split(",", 2);
    boolean descending = sort.length > 1 && "desc".equalsIgnoreCase(sort[1].trim());
    String by = switch (sort[0].trim()) {
      case "createdDate" -> "added";
      case "lastModifiedDate" -> "updated";
      default -> "title";
    };
    // The reader's "added" and "updated" are newest first, its "title" A to Z.
    boolean reversed = (members == null || asked != null) && "title".equals(by) == descending;
    SeriesSelection selection = new SeriesSelection(search, members != null && asked == null ? null : by, members);
    java.util.Set<String> statuses = KomgaReading.statuses(ctx.queryParam("read_status"));
    if (statuses == null) {
      KomgaErrors.badRequest(ctx, clock, "read_status is one of " + KomgaReading.STATUSES);
      return;
    }
    long user = user(ctx);
    java.util.Set<String> inLibraries = libraryFilter(ctx);
    VisibleSeries rating = VisibleSeries.viewer(ctx).visible();
    afterFirstScan(ctx, all -> {
      LibraryInventory.Summary summary = inLibraries.isEmpty() ? all : all.showing(all.series().stream()
          .filter(s -> inLibraries.contains(KomgaShapes.libraryId(s.library()))).toList());
      Optional<ProgressStore.Reading> kept = progress.keptReading(user);
      if (kept.isPresent()) {
        // The user's reading is in memory: the page is made on the event loop, without a worker's round trip.
        ctx.json(seriesPage(summary, selection, reversed, statuses, paging, kept.get(), rating));
        return;
      }
      blocking(ctx, () -> seriesPage(summary, selection, reversed, statuses, paging,
          new ProgressStore.Reading(progress.progress(user), progress.readChapters(user)), rating), ctx::json);
    });
  }

  /** The library ids of {@code library_id} (repeated, or comma-separated as Mihon sends them); empty: every library. */
  private static java.util.Set<String> libraryFilter(RoutingContext ctx) {
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (String value : ctx.queryParam("library_id")) {
      for (String id : value.split(",")) {
        if (!id.isBlank()) {
          ids.add(id.trim());
        }
      }
    }
    return ids;
  }

  /** A page of the series list for a user whose reading is {@code reading}. */
  private JsonObject seriesPage(LibraryInventory.Summary summary, SeriesSelection selection, boolean reversed,
      java.util.Set<String> statuses, KomgaPaging paging, ProgressStore.Reading reading, VisibleSeries rating) {
    UserReading counts = new UserReading(reading.read(), positions(reading.positions()));
    Map<String, Map<String, Instant>> times = inventory.chapterTimes();
    List<SeriesEntry> chosen = selection.apply(summary.series(), times);
    if (reversed || !statuses.isEmpty()) {
      chosen = new ArrayList<>(chosen);
      if (reversed) {
        Collections.reverse(chosen);
      }
      if (!statuses.isEmpty()) {
        chosen.removeIf(s -> !statuses.contains(counts.counts(s).status()));
      }
    }
    return paging.answer(chosen, s -> KomgaShapes.series(s, firstPublished(times, s.id()), counts.counts(s),
        rating.rating(s)));
  }

  /** {@code GET /api/v1/libraries}: every library the account may see (the downloads library, then collections). */
  private void handleLibraries(RoutingContext ctx) {
    VisibleSeries.Viewer viewer = VisibleSeries.viewer(ctx);
    JsonArray list = new JsonArray();
    libraries.get().stream().filter(viewer::seesLibrary).forEach(name -> list.add(KomgaShapes.library(name)));
    ctx.json(list);
  }

  /** {@code GET /api/v1/collections}: the catalog's collections as Komga's, paged. */
  private void handleCollections(RoutingContext ctx) {
    KomgaPaging paging = paging(ctx);
    if (paging == null) {
      return;
    }
    afterFirstScan(ctx, summary -> ctx.json(paging.answer(catalog.catalog().collections(),
        c -> KomgaShapes.collection(c, summary.series()))));
  }

  private void handleSeries(RoutingContext ctx) {
    String id = ctx.pathParam("series");
    long user = user(ctx);
    afterFirstScan(ctx, summary -> {
      Optional<SeriesEntry> found = summary.series().stream().filter(s -> s.id().equals(id)).findFirst();
      if (found.isEmpty()) {
        KomgaErrors.notFound(ctx, clock);
        return;
      }
      VisibleSeries visible = VisibleSeries.viewer(ctx).visible();
      blocking(ctx, () -> KomgaShapes.series(found.get(), firstPublished(inventory.chapterTimes(), id),
          KomgaReading.counts(found.get().chapters(), progress.readChapters(user, id),
              progress.progress(user, id).orElse(null)), visible.rating(found.get())), ctx::json);
    });
  }

  private void handleThumbnail(RoutingContext ctx) {
    if (!LibraryFiles.validId(ctx.pathParam("series"))) {
      KomgaErrors.notFound(ctx, clock);
      return;
    }
    cover.handle(ctx);
  }

  /** {@code GET /api/v1/series/{id}/books}: by chapter number; {@code media_status} and {@code deleted} ignored. */
  private void handleBooks(RoutingContext ctx) {
    String id = ctx.pathParam("series");
    KomgaPaging paging = paging(ctx);
    if (paging == null) {
      return;
    }
    if (!LibraryFiles.validId(id)) {
      KomgaErrors.notFound(ctx, clock);
      return;
    }
    long user = user(ctx);
    // Series merged into this one follow its own books; each book keeps its own id, which names its own series.
    List<String> parts = VisibleSeries.viewer(ctx).parts(id);
    blocking(ctx, () -> {
      List<JsonObject> books = new ArrayList<>();
      List<String> all = new ArrayList<>(List.of(id));
      all.addAll(parts);
      for (String seriesId : all) {
        List<LibraryFiles.Chapter> chapters;
        try {
          chapters = files.chapters(seriesId);
        } catch (LibraryFiles.NotFoundException e) {
          if (seriesId.equals(id)) {
            throw e;
          }
          continue;   // a merged series gone since the inventory was made
        }
        Map<String, Instant> read = progress.readTimes(user, seriesId);
        Progress position = progress.progress(user, seriesId).orElse(null);
        for (LibraryFiles.Chapter chapter : chapters) {
          books.add(KomgaShapes.book(chapter, books.size() + 1)
              .put("readProgress", KomgaReading.readProgress(chapter, position, read)));
        }
      }
      return paging.answer(books, b -> b);
    }, ctx::json);
  }

  private KomgaPaging paging(RoutingContext ctx) {
    return KomgaRequests.paging(ctx, clock);
  }


  /** The user's read chapters and positions, by series. */
  private record UserReading(Map<String, java.util.Set<String>> read, Map<String, Progress> positions) {
    KomgaReading.Counts counts(SeriesEntry series) {
      return KomgaReading.counts(series.chapters(), read.getOrDefault(series.id(), java.util.Set.of()),
          positions.get(series.id()));
    }
  }

  private static Map<String, Progress> positions(List<Progress> saved) {
    Map<String, Progress> positions = new java.util.HashMap<>();
    for (Progress p : saved) {
      positions.put(p.series(), p);
    }
    return positions;
  }

  private static long user(RoutingContext ctx) {
    return KomgaRequests.user(ctx);
  }

  private static Instant firstPublished(Map<String, Map<String, Instant>> times, String seriesId) {
    Map<String, Instant> chapters = times == null ? null : times.get(seriesId);
    return chapters == null ? null
        : chapters.values().stream().filter(java.util.Objects::nonNull).min(Instant::compareTo).orElse(null);
  }

  /**
   * Answers with the inventory, as much of it as the account sees, once this process has one (a kept one, or its
   * first scan, waited for briefly).
   */
  private void afterFirstScan(RoutingContext ctx, Consumer<LibraryInventory.Summary> answer) {
    VisibleSeries.Viewer viewer = VisibleSeries.viewer(ctx);
    java.util.concurrent.CompletableFuture<LibraryInventory.Summary> first = inventory.firstAnswer();
    if (first.isDone()) {
      LibraryInventory.Summary summary = inventory.summary();
      answer.accept(summary.showing(viewer.filter(summary.series())));
      return;
    }
    Future.fromCompletionStage(first, vertx.getOrCreateContext()).timeout(FIRST_SCAN_WAIT_MS, TimeUnit.MILLISECONDS)
        .onComplete(ar -> {
          if (!ctx.response().ended() && !ctx.response().closed()) {
            LibraryInventory.Summary summary = inventory.summary();
            answer.accept(summary.showing(viewer.filter(summary.series())));
          }
        });
  }

  private <T> void blocking(RoutingContext ctx, Callable<T> work, Consumer<T> answer) {
    KomgaRequests.blocking(vertx, clock, ctx, work, answer);
  }

}
