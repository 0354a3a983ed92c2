package io.mangacircus.reader.opds;

import static io.mangacircus.reader.opds.OpdsEntries.feed;
import static io.mangacircus.reader.opds.OpdsEntries.navigation;
import static io.mangacircus.reader.opds.OpdsEntries.updated;

import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.CbzDownload;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryIds;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.pages.PageResponses;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.progress.ProgressRoutes;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * The OPDS 1.2 catalog for reading apps, mounted at {@code /opds/v1.2} (docs/opds.md): a root navigation feed, the
 * user's "Keep reading", recently added chapters, all series (paged), collections, search (OpenSearch), each series
 * as an acquisition feed of its chapters with CBZ and OPDS-PSE page-stream links; streaming a page records the
 * user's position through {@link ProgressRecorder}, as the browser reader does. Every route is app-readable: a session
 * or an app password over HTTP Basic.
 */
public final class OpdsRoutes {

  /** Where the catalog is mounted. */
  public static final String MOUNT = "/opds/v1.2";

  /** Series a page of "All series" lists. */
  public static final int PAGE_SIZE = 50;

  /** Chapters "Recently added" lists. */
  public static final int RECENT_LIMIT = 50;

  private static final String ATOM = "application/atom+xml;profile=opds-catalog";
      private static final Pattern PREFIX = Pattern.compile("(/[A-Za-z0-9._~-]+)+/?");

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final LibraryFiles files;
  private final ProgressStore database;
  private final KeptCatalog catalog;
  private final CbzDownload download;
  private final ProgressRecorder recorder;
  private final io.mangacircus.reader.http.TrustedProxies proxies;
  private final Handler<RoutingContext> cover;

  /**
   * @param proxies the trusted proxies, whose {@code X-Forwarded-Prefix} links start with ({@code reader.trustProxy})
   * @param cover answers {@code GET /series/:series/cover} (page serving's)
   */
  public OpdsRoutes(Vertx vertx, LibraryInventory inventory, LibraryFiles files, ProgressStore database,
      KeptCatalog catalog, CbzDownload download, ProgressRecorder recorder, io.mangacircus.reader.http.TrustedProxies proxies,
      Handler<RoutingContext> cover) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.files = files;
    this.database = database;
    this.catalog = catalog;
    this.download = download;
    this.recorder = recorder;
    this.proxies = proxies;
    this.cover = cover;
  }

  /** The routes, relative to {@link #MOUNT}; page streaming first (most requests). */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.appReadable(router.get("/series/:series/chapters/:chapter/pages/:page")).handler(this::handlePage);
    AccessGuard.appReadable(router.get("/catalog")).handler(this::handleRoot);
    AccessGuard.appReadable(router.get("/keep-reading")).handler(this::handleKeepReading);
    AccessGuard.appReadable(router.get("/recent")).handler(this::handleRecent);
    AccessGuard.appReadable(router.get("/series")).handler(this::handleAllSeries);
    AccessGuard.appReadable(router.get("/search")).handler(this::handleSearch);
    AccessGuard.appReadable(router.get("/search.xml")).handler(this::handleOpenSearch);
    AccessGuard.appReadable(router.get("/collections")).handler(this::handleCollections);
    AccessGuard.appReadable(router.get("/collections/:id")).handler(this::handleCollection);
    AccessGuard.appReadable(router.get("/series/:series")).handler(this::handleSeries);
    AccessGuard.appReadable(router.get("/series/:series/cover")).handler(cover);
    AccessGuard.appReadable(router.get("/series/:series/chapters/:chapter.cbz")).handler(download::handle);
    return router;
  }

  // ---- navigation

  /** The library's series this request's account sees. */
  private List<SeriesEntry> seen(RoutingContext ctx) {
    return VisibleSeries.viewer(ctx).filter(inventory.summary().series());
  }

  private void handleRoot(RoutingContext ctx) {
    String base = base(ctx);
    Instant updated = seen(ctx).stream().map(SeriesEntry::updatedAt).filter(Objects::nonNull)
        .max(Instant::compareTo).orElse(Instant.EPOCH);
    OpdsFeed feed = feed(base, "urn:mangacircus:opds:root", "MangaCircus", updated, base + "/catalog",
        OpdsFeed.NAVIGATION);
    feed.entry(navigation("urn:mangacircus:opds:keep-reading", "Keep reading", updated,
        "The chapters you are in the middle of, latest first", base + "/keep-reading", OpdsFeed.ACQUISITION));
    feed.entry(navigation("urn:mangacircus:opds:recent", "Recently added", updated,
        "The newest " + RECENT_LIMIT + " chapters in the library", base + "/recent", OpdsFeed.ACQUISITION));
    feed.entry(navigation("urn:mangacircus:opds:series", "All series", updated, "Every series, by title",
        base + "/series", OpdsFeed.NAVIGATION));
    feed.entry(navigation("urn:mangacircus:opds:collections", "Collections", updated,
        "Series grouped by the administrator", base + "/collections", OpdsFeed.NAVIGATION));
    answer(ctx, feed);
  }

  private void handleAllSeries(RoutingContext ctx) {
    int page;
    try {
      page = Integer.parseInt(ctx.request().getParam("page", "1"));
    } catch (NumberFormatException e) {
      page = 0;
    }
    if (page < 1) {
      ApiReplies.error(ctx, 400, "bad_request", "page is a whole number from 1");
      return;
    }
    String base = base(ctx);
    List<SeriesEntry> all = seen(ctx);
    int pages = Math.max(1, (all.size() + PAGE_SIZE - 1) / PAGE_SIZE);
    if (page > pages) {
      ApiReplies.error(ctx, 404, "not_found", "the series list has pages 1 to " + pages);
      return;
    }
    List<SeriesEntry> shown = all.subList((page - 1) * PAGE_SIZE, Math.min(all.size(), page * PAGE_SIZE));
    OpdsFeed feed = feed(base, "urn:mangacircus:opds:series:" + page, "All series"
        + (pages > 1 ? " (" + page + " of " + pages + ")" : ""), updated(all), base + "/series?page=" + page,
        OpdsFeed.NAVIGATION);
    feed.link(new OpdsFeed.Link("first", base + "/series?page=1", OpdsFeed.NAVIGATION));
    feed.link(new OpdsFeed.Link("last", base + "/series?page=" + pages, OpdsFeed.NAVIGATION));
    if (page > 1) {
      feed.link(new OpdsFeed.Link("previous", base + "/series?page=" + (page - 1), OpdsFeed.NAVIGATION));
    }
    if (page < pages) {
      feed.link(new OpdsFeed.Link("next", base + "/series?page=" + (page + 1), OpdsFeed.NAVIGATION));
    }
    shown.forEach(s -> feed.entry(OpdsEntries.series(base, s)));
    answer(ctx, feed);
  }

  private void handleSearch(RoutingContext ctx) {
    String query = ctx.request().getParam("q", "").trim();
    String lower = query.toLowerCase(Locale.ROOT);
    String base = base(ctx);
    List<SeriesEntry> found = seen(ctx).stream()
        .filter(s -> s.title().toLowerCase(Locale.ROOT).contains(lower)).limit(PAGE_SIZE).toList();
    OpdsFeed feed = feed(base, "urn:mangacircus:opds:search", "Search: " + query, updated(found),
        base + "/search?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8), OpdsFeed.NAVIGATION);
    found.forEach(s -> feed.entry(OpdsEntries.series(base, s)));
    answer(ctx, feed);
  }

  private void handleOpenSearch(RoutingContext ctx) {
    String base = base(ctx);
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, OpdsEntries.OPENSEARCH + ";charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "private, no-cache")
        .end("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n"
            + "  <ShortName>MangaCircus</ShortName>\n"
            + "  <Description>Search the series of this MangaCircus library by title</Description>\n"
            + "  <InputEncoding>UTF-8</InputEncoding>\n"
            + "  <OutputEncoding>UTF-8</OutputEncoding>\n"
            + "  <Url type=\"" + OpdsFeed.NAVIGATION + "\" template=\"" + io.mangacircus.support.xml.XmlText.escape(base)
            + "/search?q={searchTerms}\"/>\n"
            + "</OpenSearchDescription>\n");
  }

  private void handleCollections(RoutingContext ctx) {
    String base = base(ctx);
    List<SeriesEntry> all = seen(ctx);
    java.util.Set<String> shown = new java.util.HashSet<>();
    all.forEach(s -> shown.add(s.id()));
    OpdsFeed feed = feed(base, "urn:mangacircus:opds:collections", "Collections", updated(all),
        base + "/collections", OpdsFeed.NAVIGATION);
    for (CatalogStore.Collection c : catalog.catalog().collections()) {
      feed.entry(navigation("urn:mangacircus:collection:" + c.id(), c.name(), updated(all),
          c.series().stream().filter(shown::contains).count() + " series",
          base + "/collections/" + c.id(),
          OpdsFeed.NAVIGATION));
    }
    answer(ctx, feed);
  }

  private void handleCollection(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    Optional<CatalogStore.Collection> collection = catalog.collection(id);
    if (collection.isEmpty()) {
      ApiReplies.error(ctx, 404, "not_found", "no collection " + id);
      return;
    }
    String base = base(ctx);
    List<SeriesEntry> members = seen(ctx).stream()
        .filter(s -> collection.get().series().contains(s.id())).toList();
    OpdsFeed feed = feed(base, "urn:mangacircus:collection:" + collection.get().id(), collection.get().name(),
        updated(members), base + "/collections/" + collection.get().id(), OpdsFeed.NAVIGATION);
    feed.link(new OpdsFeed.Link("up", base + "/collections", OpdsFeed.NAVIGATION));
    members.forEach(s -> feed.entry(OpdsEntries.series(base, s)));
    answer(ctx, feed);
  }

  // ---- acquisition

  private void handleSeries(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    if (LibraryIds.refused(ctx, seriesId)) {
      return;
    }
    String base = base(ctx);
    // Series merged into this one follow its own chapters, each linked under the series that holds it.
    List<String> parts = VisibleSeries.viewer(ctx).parts(seriesId);
    blocking(ctx, () -> {
      List<LibraryFiles.Chapter> chapters = files.chapters(seriesId);
      OpdsEntries.Reading reading = reading(session.userId(), seriesId);
      LibraryFiles.Chapter first = chapters.get(0);
      Instant updated = chapters.stream().map(LibraryFiles.Chapter::publishedAt).filter(Objects::nonNull)
          .max(Instant::compareTo).orElse(Instant.EPOCH);
      OpdsFeed feed = feed(base, "urn:mangacircus:series:" + seriesId, first.seriesTitle(), updated,
          base + "/series/" + seriesId, OpdsFeed.ACQUISITION);
      feed.link(new OpdsFeed.Link("up", base + "/series", OpdsFeed.NAVIGATION));
      String type = first.pages().get(0).mediaType();
      feed.link(new OpdsFeed.Link(OpdsFeed.IMAGE, base + "/series/" + seriesId + "/cover", type));
      feed.link(new OpdsFeed.Link(OpdsFeed.THUMBNAIL, base + "/series/" + seriesId + "/cover", type));
      chapters.forEach(c -> feed.entry(OpdsEntries.chapter(base, c, reading, false)));
      for (String part : parts) {
        OpdsEntries.Reading partReading = reading(session.userId(), part);
        try {
          files.chapters(part).forEach(c -> feed.entry(OpdsEntries.chapter(base, c, partReading, false)));
        } catch (LibraryFiles.NotFoundException e) {
          // gone since the inventory was made
        }
      }
      return feed;
    }, feed -> answer(ctx, feed));
  }

  private void handleKeepReading(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String base = base(ctx);
    blocking(ctx, () -> {
      List<OpdsFeed.Entry> entries = new ArrayList<>();
      Instant updated = Instant.EPOCH;
      VisibleSeries.Viewer viewer = VisibleSeries.viewer(ctx);
      for (Progress p : database.progress(session.userId())) {
        if (entries.size() >= ProgressRoutes.CONTINUE_LIMIT) {
          break;
        }
        if (!viewer.sees(p.series())) {
          continue;
        }
        try {
          LibraryFiles.Chapter chapter = files.chapter(p.series(), p.chapter());
          entries.add(OpdsEntries.chapter(base, chapter, reading(session.userId(), p.series()), true));
          updated = p.updatedAt().isAfter(updated) ? p.updatedAt() : updated;
        } catch (LibraryFiles.NotFoundException | IllegalArgumentException e) {
          // the chapter left the library: nothing to keep reading
        }
      }
      OpdsFeed feed = feed(base, "urn:mangacircus:opds:keep-reading:" + session.userId(), "Keep reading", updated,
          base + "/keep-reading", OpdsFeed.ACQUISITION);
      entries.forEach(feed::entry);
      return feed;
    }, feed -> answer(ctx, feed));
  }

  private void handleRecent(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String base = base(ctx);
    List<SeriesEntry> newest = seen(ctx).stream()
        .sorted(Comparator.comparing(SeriesEntry::updatedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
            .reversed()).limit(RECENT_LIMIT).toList();
    blocking(ctx, () -> {
      List<LibraryFiles.Chapter> chapters = new ArrayList<>();
      for (SeriesEntry s : newest) {
        try {
          chapters.addAll(files.chapters(s.id()));
        } catch (LibraryFiles.NotFoundException e) {
          // gone since the inventory was made
        }
      }
      chapters.sort(Comparator.comparing(LibraryFiles.Chapter::publishedAt,
          Comparator.nullsFirst(Comparator.naturalOrder())).reversed());
      List<LibraryFiles.Chapter> shown = chapters.subList(0, Math.min(RECENT_LIMIT, chapters.size()));
      OpdsFeed feed = feed(base, "urn:mangacircus:opds:recent", "Recently added", updated(newest),
          base + "/recent", OpdsFeed.ACQUISITION);
      for (LibraryFiles.Chapter c : shown) {
        feed.entry(OpdsEntries.chapter(base, c, reading(session.userId(), c.seriesId()), true));
      }
      return feed;
    }, feed -> answer(ctx, feed));
  }

  // ---- files

  /**
   * OPDS-PSE page {@code page} (0-based, as the stream link's {@code {pageNumber}}) of a chapter; the user's position
   * moves to it exactly as the browser reader's {@code PUT /api/progress} would move it (page + 1, the last page marks
   * the chapter read).
   */
  private void handlePage(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (LibraryIds.refused(ctx, seriesId, chapterId)) {
      return;
    }
    int page;
    try {
      page = Integer.parseInt(ctx.pathParam("page"));
    } catch (NumberFormatException e) {
      page = -1;
    }
    if (page < 0) {
      ApiReplies.error(ctx, 400, "bad_request", "a page number is a whole number from 0");
      return;
    }
    int index = page + 1;
    blocking(ctx, () -> {
      LibraryFiles.Chapter chapter = files.chapter(seriesId, chapterId);
      if (index <= chapter.pages().size()) {
        recorder.save(session.userId(), seriesId, chapterId, index);
      }
      return chapter;
    }, chapter -> PageResponses.send(ctx, chapter, index, PageResponses.PAGE_CACHE));
  }

  private OpdsEntries.Reading reading(long userId, String seriesId) throws StoreException {
    return new OpdsEntries.Reading(database.progress(userId, seriesId), database.readChapters(userId, seriesId));
  }

  /**
   * Where the catalog's links start: {@code /opds/v1.2}, after the proxy's {@code X-Forwarded-Prefix} when the
   * request comes from a trusted proxy and the prefix is a plain path.
   */
  private String base(RoutingContext ctx) {
    if (proxies.any() && ctx.request().remoteAddress() != null
        && proxies.trusts(ctx.request().remoteAddress().hostAddress())) {
      String prefix = ctx.request().getHeader("X-Forwarded-Prefix");
      if (prefix != null && PREFIX.matcher(prefix).matches() && !prefix.contains("..")) {
        return (prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix) + MOUNT;
      }
    }
    return MOUNT;
  }

  private static void answer(RoutingContext ctx, OpdsFeed feed) {
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, ATOM + ";charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "private, no-cache").end(feed.xml());
  }

  private <T> void blocking(RoutingContext ctx, Callable<T> work, java.util.function.Consumer<T> answer) {
    ApiReplies.blocking(vertx, ctx, work, answer);
  }
}
