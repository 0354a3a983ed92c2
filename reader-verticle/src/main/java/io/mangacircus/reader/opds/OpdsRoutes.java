package io.mangacircus.reader.opds;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.catalog.CatalogStore;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.CbzDownload;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.library.SeriesRoutes;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.progress.ProgressRoutes;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.StoreException;
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
import java.util.Set;
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
  private static final String OPENSEARCH = "application/opensearchdescription+xml";
  private static final Set<String> PSE_TYPES = Set.of("image/jpeg", "image/png", "image/gif");
  private static final Pattern PREFIX = Pattern.compile("(/[A-Za-z0-9._~-]+)+/?");

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final LibraryFiles files;
  private final ProgressStore database;
  private final CatalogStore catalog;
  private final CbzDownload download;
  private final ProgressRecorder recorder;
  private final boolean trustProxy;

  /** @param trustProxy whether links start with the proxy's {@code X-Forwarded-Prefix} ({@code reader.trustProxy}) */
  public OpdsRoutes(Vertx vertx, LibraryInventory inventory, LibraryFiles files, ProgressStore database,
      CatalogStore catalog, CbzDownload download, ProgressRecorder recorder, boolean trustProxy) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.files = files;
    this.database = database;
    this.catalog = catalog;
    this.download = download;
    this.recorder = recorder;
    this.trustProxy = trustProxy;
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
    AccessGuard.appReadable(router.get("/series/:series/cover")).handler(this::handleCover);
    AccessGuard.appReadable(router.get("/series/:series/chapters/:chapter.cbz")).handler(download::handle);
    return router;
  }

  // ---- navigation

  private void handleRoot(RoutingContext ctx) {
    String base = base(ctx);
    Instant updated = inventory.summary().series().stream().map(SeriesEntry::updatedAt).filter(Objects::nonNull)
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
    List<SeriesEntry> all = inventory.summary().series();
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
    shown.forEach(s -> feed.entry(seriesEntry(base, s)));
    answer(ctx, feed);
  }

  private void handleSearch(RoutingContext ctx) {
    String query = ctx.request().getParam("q", "").trim();
    String lower = query.toLowerCase(Locale.ROOT);
    String base = base(ctx);
    List<SeriesEntry> found = inventory.summary().series().stream()
        .filter(s -> s.title().toLowerCase(Locale.ROOT).contains(lower)).limit(PAGE_SIZE).toList();
    OpdsFeed feed = feed(base, "urn:mangacircus:opds:search", "Search: " + query, updated(found),
        base + "/search?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8), OpdsFeed.NAVIGATION);
    found.forEach(s -> feed.entry(seriesEntry(base, s)));
    answer(ctx, feed);
  }

  private void handleOpenSearch(RoutingContext ctx) {
    String base = base(ctx);
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, OPENSEARCH + ";charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "private, no-cache")
        .end("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n"
            + "  <ShortName>MangaCircus</ShortName>\n"
            + "  <Description>Search the series of this MangaCircus library by title</Description>\n"
            + "  <InputEncoding>UTF-8</InputEncoding>\n"
            + "  <OutputEncoding>UTF-8</OutputEncoding>\n"
            + "  <Url type=\"" + OpdsFeed.NAVIGATION + "\" template=\"" + OpdsFeed.escape(base)
            + "/search?q={searchTerms}\"/>\n"
            + "</OpenSearchDescription>\n");
  }

  private void handleCollections(RoutingContext ctx) {
    String base = base(ctx);
    List<SeriesEntry> all = inventory.summary().series();
    OpdsFeed feed = feed(base, "urn:mangacircus:opds:collections", "Collections", updated(all),
        base + "/collections", OpdsFeed.NAVIGATION);
    for (CatalogStore.Collection c : catalog.catalog().collections()) {
      feed.entry(navigation("urn:mangacircus:collection:" + c.id(), c.name(), updated(all),
          c.series().size() + " series", base + "/collections/" + c.id(),
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
    List<SeriesEntry> members = inventory.summary().series().stream()
        .filter(s -> collection.get().series().contains(s.id())).toList();
    OpdsFeed feed = feed(base, "urn:mangacircus:collection:" + collection.get().id(), collection.get().name(),
        updated(members), base + "/collections/" + collection.get().id(), OpdsFeed.NAVIGATION);
    feed.link(new OpdsFeed.Link("up", base + "/collections", OpdsFeed.NAVIGATION));
    members.forEach(s -> feed.entry(seriesEntry(base, s)));
    answer(ctx, feed);
  }

  // ---- acquisition

  private void handleSeries(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    if (badIds(ctx, seriesId)) {
      return;
    }
    String base = base(ctx);
    blocking(ctx, () -> {
      List<LibraryFiles.Chapter> chapters = files.chapters(seriesId);
      Reading reading = reading(session.userId(), seriesId);
      LibraryFiles.Chapter first = chapters.get(0);
      Instant updated = chapters.stream().map(LibraryFiles.Chapter::publishedAt).filter(Objects::nonNull)
          .max(Instant::compareTo).orElse(Instant.EPOCH);
      OpdsFeed feed = feed(base, "urn:mangacircus:series:" + seriesId, first.seriesTitle(), updated,
          base + "/series/" + seriesId, OpdsFeed.ACQUISITION);
      feed.link(new OpdsFeed.Link("up", base + "/series", OpdsFeed.NAVIGATION));
      String type = first.pages().get(0).mediaType();
      feed.link(new OpdsFeed.Link(OpdsFeed.IMAGE, base + "/series/" + seriesId + "/cover", type));
      feed.link(new OpdsFeed.Link(OpdsFeed.THUMBNAIL, base + "/series/" + seriesId + "/cover", type));
      chapters.forEach(c -> feed.entry(chapterEntry(base, c, reading, false)));
      return feed;
    }, feed -> answer(ctx, feed));
  }

  private void handleKeepReading(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String base = base(ctx);
    blocking(ctx, () -> {
      List<OpdsFeed.Entry> entries = new ArrayList<>();
      Instant updated = Instant.EPOCH;
      for (Progress p : database.progress(session.userId())) {
        if (entries.size() >= ProgressRoutes.CONTINUE_LIMIT) {
          break;
        }
        try {
          LibraryFiles.Chapter chapter = files.chapter(p.series(), p.chapter());
          entries.add(chapterEntry(base, chapter, reading(session.userId(), p.series()), true));
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
    List<SeriesEntry> newest = inventory.summary().series().stream()
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
        feed.entry(chapterEntry(base, c, reading(session.userId(), c.seriesId()), true));
      }
      return feed;
    }, feed -> answer(ctx, feed));
  }

  // ---- files

  private void handleCover(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    if (badIds(ctx, seriesId)) {
      return;
    }
    blocking(ctx, () -> files.chapters(seriesId).get(0),
        chapter -> SeriesRoutes.sendPage(ctx, chapter, 1, "private, max-age=300"));
  }

  /**
   * OPDS-PSE page {@code page} (0-based, as the stream link's {@code {pageNumber}}) of a chapter; the user's position
   * moves to it exactly as the browser reader's {@code PUT /api/progress} would move it (page + 1, the last page marks
   * the chapter read).
   */
  private void handlePage(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (badIds(ctx, seriesId, chapterId)) {
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
    }, chapter -> SeriesRoutes.sendPage(ctx, chapter, index, SeriesRoutes.PAGE_CACHE));
  }

  // ---- entries

  /** A user's place in one series: its position and the chapters marked read. */
  private record Reading(Optional<Progress> progress, Set<String> read) {
  }

  private Reading reading(long userId, String seriesId) throws StoreException {
    return new Reading(database.progress(userId, seriesId), database.readChapters(userId, seriesId));
  }

  private static OpdsFeed.Entry seriesEntry(String base, SeriesEntry s) {
    String href = base + "/series/" + s.id();
    String cover = href + "/cover";
    return new OpdsFeed.Entry("urn:mangacircus:series:" + s.id(), s.title(), s.updatedAt(),
        s.chapters() + (s.chapters() == 1 ? " chapter" : " chapters"),
        List.of(new OpdsFeed.Link("subsection", href, OpdsFeed.ACQUISITION),
            new OpdsFeed.Link(OpdsFeed.IMAGE, cover, null), new OpdsFeed.Link(OpdsFeed.THUMBNAIL, cover, null)),
        List.of());
  }

  /**
   * One chapter: its number and title (from {@code chapter.json}, as in ComicInfo.xml), the CBZ acquisition link, the
   * page-stream link with the page count and the user's last page read, and the series cover.
   */
  private static OpdsFeed.Entry chapterEntry(String base, LibraryFiles.Chapter c, Reading reading,
      boolean withSeries) {
    String chapterPath = base + "/series/" + c.seriesId() + "/chapters/" + c.id();
    String name = "Chapter " + c.number() + (c.title() == null || c.title().isEmpty() ? "" : ": " + c.title());
    String title = withSeries ? c.seriesTitle() + " – " + name : name;
    int count = c.pages().size();
    List<String[]> pse = new ArrayList<>();
    pse.add(new String[] {"pse:count", String.valueOf(count)});
    Optional<Progress> here = reading.progress().filter(p -> p.chapter().equals(c.id()));
    if (here.isPresent()) {
      pse.add(new String[] {"pse:lastRead", String.valueOf(here.get().page())});
      pse.add(new String[] {"pse:lastReadDate", OpdsFeed.time(here.get().updatedAt())});
    } else if (reading.read().contains(c.id())) {
      pse.add(new String[] {"pse:lastRead", String.valueOf(count)});
    }
    String pageType = c.pages().get(0).mediaType();
    String cover = base + "/series/" + c.seriesId() + "/cover";
    List<OpdsFeed.Link> links = List.of(
        new OpdsFeed.Link(OpdsFeed.ACQUIRE, chapterPath + ".cbz", CbzDownload.MEDIA_TYPE, "CBZ", List.of()),
        new OpdsFeed.Link(OpdsFeed.PSE_STREAM, chapterPath + "/pages/{pageNumber}",
            PSE_TYPES.contains(pageType) ? pageType : "image/jpeg", null, pse),
        new OpdsFeed.Link(OpdsFeed.IMAGE, cover, pageType),
        new OpdsFeed.Link(OpdsFeed.THUMBNAIL, cover, pageType));
    String state = reading.read().contains(c.id()) ? "read" : here.map(p -> "page " + p.page() + " of " + count)
        .orElse("unread");
    return new OpdsFeed.Entry("urn:mangacircus:chapter:" + c.seriesId() + ":" + c.id(), title, c.publishedAt(),
        c.seriesTitle() + ", chapter " + c.number() + ": " + count + (count == 1 ? " page" : " pages") + ", " + state,
        links, List.of());
  }

  private static OpdsFeed.Entry navigation(String id, String title, Instant updated, String content, String href,
      String type) {
    return new OpdsFeed.Entry(id, title, updated, content, List.of(new OpdsFeed.Link("subsection", href, type)),
        List.of());
  }

  private static OpdsFeed feed(String base, String id, String title, Instant updated, String self, String type) {
    return new OpdsFeed(id, title, updated)
        .link(new OpdsFeed.Link("self", self, type))
        .link(new OpdsFeed.Link("start", base + "/catalog", OpdsFeed.NAVIGATION))
        .link(new OpdsFeed.Link("search", base + "/search.xml", OPENSEARCH));
  }

  private static Instant updated(List<SeriesEntry> series) {
    return series.stream().map(SeriesEntry::updatedAt).filter(Objects::nonNull).max(Instant::compareTo)
        .orElse(Instant.EPOCH);
  }

  /**
   * Where the catalog's links start: {@code /opds/v1.2}, after the proxy's {@code X-Forwarded-Prefix} when the
   * configuration trusts the proxy and the prefix is a plain path.
   */
  private String base(RoutingContext ctx) {
    if (trustProxy) {
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

  private static boolean badIds(RoutingContext ctx, String... ids) {
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
}
