package io.mangacircus.reader.library;

import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.store.LibraryVisit;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.shelves.ReadingCounts;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/series?q=&sort=title|updated|added&collection=&page=&size=}: the library list (or one page of it; or
 * a collection's members, {@link SeriesSelection}) with this user's reading summary per series, answered at once from
 * the inventory; only before this process has any inventory (no kept one, first scan still running) it waits for that
 * scan, for at most {@link #PARTIAL_AFTER}, then answers with the series found so far ({@code partial}) as soon as
 * there is one, and after {@link #FIRST_SCAN_WAIT} whatever there is; once a partial list was answered, later requests
 * during that scan get the list found so far at once.
 */
final class SeriesListRoute implements Handler<RoutingContext> {

  /** How long the first {@code GET /api/series} of a reader without a kept inventory waits for the first scan. */
  static final Duration FIRST_SCAN_WAIT = Duration.ofSeconds(10);

  /** After this, such an answer shows what the first scan has found so far (marked partial) rather than waiting on. */
  static final Duration PARTIAL_AFTER = Duration.ofSeconds(1);

  /** Series per page of {@code GET /api/series?page=}: the default and the most. */
  static final int PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 500;

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final ProgressStore database;
  private final KeptCatalog catalog;
  /** The list's sorted orders, kept until the inventory's list changes (every page of the grid and shelf asks). */
  private final SeriesOrders orders = new SeriesOrders();
  /** A partial list was answered: later requests during that first scan get the list found so far at once. */
  private volatile boolean partialAnswered;

  SeriesListRoute(Vertx vertx, LibraryInventory inventory, ProgressStore database, KeptCatalog catalog) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.database = database;
    this.catalog = catalog;
  }

  @Override
  public void handle(RoutingContext ctx) {
    Paging paging = Paging.of(ctx);
    SeriesSelection selection = paging == null ? null : selection(ctx);
    if (selection == null) {
      return;
    }
    CompletableFuture<LibraryInventory.Summary> first = inventory.firstAnswer();
    if (first.isDone() || partialAnswered && inventory.firstSeries().isDone()) {
      answerList(ctx, inventory.summary(), paging, selection);
      return;
    }
    Context context = vertx.getOrCreateContext();
    Future<LibraryInventory.Summary> whole = Future.fromCompletionStage(first, context);
    Future<LibraryInventory.Summary> partial = vertx.timer(PARTIAL_AFTER.toMillis())
        .compose(v -> Future.fromCompletionStage(inventory.firstSeries(), context));
    Future.any(whole, partial)
        .timeout(FIRST_SCAN_WAIT.toMillis(), TimeUnit.MILLISECONDS)
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
    String query = ctx.request().getParam("q", "").trim().toLowerCase(Locale.ROOT);
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
    Map<String, Map<String, Instant>> times = inventory.chapterTimes();
    LibraryInventory.Summary seen = summary.showing(VisibleSeries.viewer(ctx).filter(summary.series()));
    ApiReplies.blocking(vertx, ctx, () -> new UserMarks(database.readChapters(session.userId()),
        database.libraryVisit(session.userId()).map(LibraryVisit::since).orElse(null)),
        marks -> answerList(ctx, seen, times, marks, paging, selection, orders));
  }

  private record UserMarks(Map<String, Set<String>> read, Instant since) {
  }

  private static void answerList(RoutingContext ctx, LibraryInventory.Summary summary,
      Map<String, Map<String, Instant>> times, UserMarks marks, Paging paging,
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
      Map<String, Instant> chapters = times == null ? null : times.get(s.id());
      ReadingCounts counts = chapters == null
          ? ReadingCounts.estimated(s.chapters(), read.size())
          : ReadingCounts.of(chapters, read, marks.since());
      list.add(new JsonObject().put("id", s.id()).put("title", s.title()).put("source", s.source())
          .put("titleId", s.titleId()).put("library", s.library()).put("chapters", s.chapters())
          .put("updatedAt", s.updatedAt().toString())
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

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
