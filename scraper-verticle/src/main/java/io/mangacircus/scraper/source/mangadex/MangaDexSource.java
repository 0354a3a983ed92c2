package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.RequestLine;
import io.mangacircus.scraper.source.SourceHttp;
import io.mangacircus.scraper.source.RequestLimiter;
import io.mangacircus.scraper.source.LearnedRate;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceHold;
import io.mangacircus.scraper.source.SourceLimits;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitleInfo;
import io.mangacircus.scraper.source.TitlePreview;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MangaDex adapter, over its public JSON API: title from {@code GET /manga/{id}}, chapters of the job's language from the
 * paginated {@code GET /manga/{id}/feed} (scheduled and externally hosted ones listed as such, never downloaded), pages from {@code GET /at-home/server/{chapterId}} and the MangaDex@Home
 * server it names. Keeps MangaDex's published limits for every request it sends, images included — at most 5 a
 * second and 40 at-home look-ups a minute — by sending one request at a time per API root, each at least 210 ms after
 * the previous one started and ended, across every adapter of this process that talks to that API (the source registry hands them one line per API root); honours
 * {@code Retry-After} and {@code X-RateLimit-Retry-After}. An at-home server is used for at most 14 minutes (they are
 * valid for about 15); a page that fails on it gets one fresh server and one more try. Does not log in, so it only
 * sees what MangaDex shows anonymously, and does not report image-server health to MangaDex@Home.
 */
public final class MangaDexSource implements Source {

  private static final Logger LOG = LoggerFactory.getLogger(MangaDexSource.class);

  /** Where MangaDex serves covers for its own API. */
  public static final String UPLOADS_URL = "https://uploads.mangadex.org";

  /** A title's page on the MangaDex site. */
  static final String TITLE_PAGE = "https://mangadex.org/title/";

  /** The most feed pages a preview reads (it lists every language). */
  static final int PREVIEW_FEED_PAGES = 10;

  /** The API root used when a source's {@code baseUrl} is empty. */
  public static final String DEFAULT_BASE_URL = "https://api.mangadex.org";

  /**
   * Every request: at most 4 within 1.1 s (one under MangaDex's 5 a second, with 100 ms for the way from us to
   * MangaDex, so that no second MangaDex counts ever sees a fifth), each starting at least 210 ms after the previous
   * one started and after it ended.
   */
  static final RequestLimiter.Rule ALL_REQUESTS = new RequestLimiter.Rule("all requests", 4,
      Duration.ofSeconds(1).plus(Duration.ofMillis(100)), Duration.ofMillis(210));

  /**
   * Added to every window we count: we count when a request leaves, MangaDex when it arrives, and a request that was
   * slow to arrive must not bring the next window's first one into its own.
   */
  static final Duration WINDOW_SLACK = Duration.ofSeconds(1);

  /** The most requests a second this adapter ever allows itself; a 429 lowers it for a while ({@link LearnedRate}). */
  static final double CONFIGURED_RPS = 4.0;

  /** A wait for a slot or a hold up to this long is sat out in the request line; a longer one is a {@link FetchOutcome.Held}. */
  static final Duration LONGEST_LINE_WAIT = Duration.ofSeconds(5);

  /** The lane's status while MangaDex's at-home limit (announced, or our own budget under it) holds requests. */
  public static final String AT_HOME_HOLD = "waiting for MangaDex's at-home limit";
  /** The lane's status while MangaDex's request limit holds requests. */
  public static final String REQUEST_HOLD = "waiting for MangaDex's request limit";

  /** How long an at-home server is used before a fresh one is asked for (MangaDex: valid for about 15 minutes). */
  static final Duration AT_HOME_MAX_AGE = Duration.ofMinutes(14);

  /** Chapters whose at-home server is remembered (the lane works on one at a time). */
  private static final int REMEMBERED_SERVERS = 32;

  /** The API caps {@code offset + limit} of any list at 10 000. */
  private static final int FEED_OFFSET_CAP = 10_000;

  /** How long an inspection cut short is remembered, to go on from where it stopped. */
  static final Duration PARTIAL_KEPT = Duration.ofMinutes(30);

  /** The "feed offset" of an inspection cut short after the chapters readable now, before the scheduled ones. */
  private static final int SCHEDULED_FEED = -1;

  /** An inspection cut short: what was read, and the feed offset it stopped at ({@link #SCHEDULED_FEED}). */
  private record Partial(String title, List<String> languages, List<MangaDexJson.Chapter> chapters, int nextOffset,
      Instant at) {
  }

  private final Map<String, Partial> partials = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Partial> eldest) {
      return size() > REMEMBERED_SERVERS;
    }
  };

  /** Where a chapter's pages are served now, and since when. */
  private record ChapterServer(String chapterId, MangaDexJson.AtHome atHome, Instant fetchedAt) {
  }

  private final String name;
  private final String apiBaseUrl;
  private final String uploadsUrl;
  private final MangaDexOptions options;
  private final SourceHttp http;
  private final RequestLine line;
  private final RequestLimiter limiter;
  private final InstantSource clock;
  private final long metadataTimeoutMs;
  private final long pageTimeoutMs;
  private final List<RequestLimiter.Rule> apiRequests;
  private final List<RequestLimiter.Rule> atHomeRequests;
  private final LearnedRate rate;
  private final java.util.concurrent.atomic.AtomicLong holdsWaited = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();
  private volatile Instant lastHeld = Instant.MIN;
  private final Map<String, ChapterServer> serversByHash = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, ChapterServer> eldest) {
      return size() > REMEMBERED_SERVERS;
    }
  };

  /**
   * @param apiBaseUrl the API root, e.g. {@code https://api.mangadex.org}
   * @param line the line every request to this API waits in; one per API root in a process
   * @param clock the clock of {@code line}'s limiter
   * @param challengeMarkers texts that mark an HTML answer as an access challenge
   */
  public MangaDexSource(String name, String apiBaseUrl, MangaDexOptions options, WebClient client, RequestLine line,
      InstantSource clock, long metadataTimeoutMs, long pageTimeoutMs, List<String> challengeMarkers) {
    this.name = name;
    this.apiBaseUrl = normalise(apiBaseUrl);
    this.uploadsUrl = options.uploadsUrl() != null ? options.uploadsUrl()
        : this.apiBaseUrl.equals(DEFAULT_BASE_URL) ? UPLOADS_URL : this.apiBaseUrl;
    this.options = options;
    this.http = new SourceHttp(client, clock, challengeMarkers, MangaDexJson::errorDetail);
    this.line = line;
    this.limiter = line.limiter();
    this.clock = clock;
    this.metadataTimeoutMs = metadataTimeoutMs;
    this.pageTimeoutMs = pageTimeoutMs;
    // One under every published limit: a server counting a rolling window never sees the limit reached.
    RequestLimiter.Rule atHome = new RequestLimiter.Rule("at-home server look-ups", options.atHomeLimit() - 1,
        Duration.ofSeconds(options.atHomeWindowSeconds()).plus(WINDOW_SLACK), Duration.ZERO);
    this.apiRequests = List.of(ALL_REQUESTS);
    this.atHomeRequests = List.of(ALL_REQUESTS, atHome);
    this.rate = limiter.learnedRate(CONFIGURED_RPS);
  }

  /** The API root a configured {@code baseUrl} stands for ({@link #DEFAULT_BASE_URL} when empty). */
  public static String apiBaseUrl(String configured) {
    return configured == null || configured.isBlank() ? DEFAULT_BASE_URL : normalise(configured);
  }

  private static String normalise(String url) {
    String trimmed = url.trim();
    return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String titleIdOf(String titleRef) {
    return MangaDexRefs.titleId(titleRef).orElse(titleRef.trim());
  }

  // ---- title --------------------------------------------------------------------------------------------------

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
    return title(titleRef, Duration.ZERO);
  }

  /**
   * The title and its English feed (today's default), {@code spacing} between requests (the lane's pacing). A title whose manga answer
   * lists its languages without English ends there, after one request. An inspection cut short by a failure is
   * remembered for {@link #PARTIAL_KEPT}: the next one goes on from the feed page that failed.
   */
  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing) {
    return title(titleRef, spacing, Wanted.DEFAULT);
  }

  /**
   * The title and its feed in {@code wanted}'s language, one chapter per number by its group preference
   * ({@link io.mangacircus.scraper.source.GroupChoice}), {@code spacing} between requests.
   */
  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing, Wanted wanted) {
    Optional<String> parsed = MangaDexRefs.titleId(titleRef);
    if (parsed.isEmpty()) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + titleRef.trim() + "' is not a MangaDex title "
          + "URL (https://mangadex.org/title/<id>/...) or title id (a UUID)"));
    }
    String id = parsed.get();
    Partial partial;
    synchronized (partials) {
      partial = partials.remove(id + "\u0000" + wanted.language());
    }
    if (partial != null && Duration.between(partial.at(), clock.instant()).compareTo(PARTIAL_KEPT) < 0) {
      LOG.info("[MANGADEX {}] inspection of {} goes on at feed offset {} ({} chapters read before)", name, id,
          partial.nextOffset(), partial.chapters().size());
      return partial.nextOffset() == SCHEDULED_FEED
          ? scheduled(id, new ArrayList<>(partial.chapters()), spacing, partial.title(), partial.languages(), wanted)
          : feed(id, partial.nextOffset(), new ArrayList<>(partial.chapters()), spacing, partial.title(),
              partial.languages(), wanted);
    }
    String what = "MangaDex title " + id;
    return api(apiBaseUrl + "/manga/" + id, what, false, request -> request)
        .compose(answer -> {
          if (!answer.ok()) {
            return Future.succeededFuture(answer.<TitleInfo>failure());
          }
          FetchOutcome<String> title = MangaDexJson.title(answer.value(), what);
          if (!title.ok()) {
            return Future.succeededFuture(title.<TitleInfo>failure());
          }
          List<String> languages = MangaDexJson.languages(answer.value());
          if (!languages.isEmpty() && !languages.contains(wanted.language())) {
            return Future.succeededFuture(new FetchOutcome.Ok<>(new TitleInfo(id, title.value(), List.of(),
                languages)));
          }
          return pause(spacing).compose(v -> feed(id, 0, new ArrayList<>(), spacing, title.value(), languages,
              wanted));
        });
  }

  /**
   * Every page of the feed in the wanted language of chapters readable now ({@code includeFuturePublishAt=0}, MangaDex's default
   * filter made explicit; chapters hosted elsewhere are in it) from {@code offset} on, appended to {@code chapters},
   * then the {@link #scheduled} ones.
   */
  private Future<FetchOutcome<TitleInfo>> feed(String id, int offset, List<MangaDexJson.Chapter> chapters,
      Duration spacing, String title, List<String> languages, Wanted wanted) {
    String what = "MangaDex feed of " + id + " at offset " + offset;
    int limit = Math.min(options.feedPageSize(), FEED_OFFSET_CAP - offset);
    return api(apiBaseUrl + "/manga/" + id + "/feed", what, false, request -> request
        .addQueryParam("translatedLanguage[]", wanted.language())
        .addQueryParam("order[chapter]", "asc")
        .addQueryParam("includeFuturePublishAt", "0")
        .addQueryParam("limit", String.valueOf(limit))
        .addQueryParam("offset", String.valueOf(offset)))
        .compose(answer -> {
          if (!answer.ok()) {
            synchronized (partials) {
              partials.put(id + "\u0000" + wanted.language(), new Partial(title, languages, List.copyOf(chapters), offset,
                  clock.instant()));
            }
            return Future.succeededFuture(answer.<TitleInfo>failure());
          }
          FetchOutcome<MangaDexJson.FeedPage> page = MangaDexJson.feedPage(answer.value(), what);
          if (!page.ok()) {
            return Future.succeededFuture(page.<TitleInfo>failure());
          }
          chapters.addAll(page.value().chapters());
          int next = offset + Math.max(page.value().limit(), page.value().chapters().size());
          boolean done = page.value().chapters().isEmpty() || page.value().limit() < 1 || next >= page.value().total();
          if (!done && next >= FEED_OFFSET_CAP) {
            LOG.warn("[MANGADEX {}] title {} lists {} chapters; the API serves only the first {}", name, id,
                page.value().total(), FEED_OFFSET_CAP);
            done = true;
          }
          if (done) {
            return pause(spacing).compose(v -> scheduled(id, chapters, spacing, title, languages, wanted));
          }
          return pause(spacing).compose(v -> feed(id, next, chapters, spacing, title, languages, wanted));
        });
  }

  /**
   * The chapters in the wanted language MangaDex releases later ({@code includeFuturePublishAt=1}: one page, they are few), appended
   * to {@code chapters}, then the title. Whatever the server sends, a chapter is listed as scheduled by its own
   * {@code publishAt}/{@code readableAt} against this adapter's clock, never by the query that found it.
   */
  private Future<FetchOutcome<TitleInfo>> scheduled(String id, List<MangaDexJson.Chapter> chapters, Duration spacing,
      String title, List<String> languages, Wanted wanted) {
    String what = "MangaDex scheduled chapters of " + id;
    return api(apiBaseUrl + "/manga/" + id + "/feed", what, false, request -> request
        .addQueryParam("translatedLanguage[]", wanted.language())
        .addQueryParam("order[chapter]", "asc")
        .addQueryParam("includeFuturePublishAt", "1")
        .addQueryParam("limit", String.valueOf(options.feedPageSize()))
        .addQueryParam("offset", "0"))
        .map(answer -> {
          if (!answer.ok()) {
            synchronized (partials) {
              partials.put(id + "\u0000" + wanted.language(), new Partial(title, languages, List.copyOf(chapters),
                  SCHEDULED_FEED, clock.instant()));
            }
            return answer.<TitleInfo>failure();
          }
          FetchOutcome<MangaDexJson.FeedPage> page = MangaDexJson.feedPage(answer.value(), what);
          if (!page.ok()) {
            return page.<TitleInfo>failure();
          }
          if (page.value().total() > page.value().chapters().size()) {
            LOG.warn("[MANGADEX {}] title {} has {} scheduled chapters; only the first {} are listed", name, id,
                page.value().total(), page.value().chapters().size());
          }
          List<MangaDexJson.Chapter> all = new ArrayList<>(chapters);
          all.addAll(page.value().chapters());
          return new FetchOutcome.Ok<>(new TitleInfo(id, title, MangaDexJson.chapters(all, clock.instant(),
              wanted.preferredGroups()), languages));
        });
  }

  /** Waits {@code spacing} on a timer of the caller's context (at once for none). */
  private static Future<Void> pause(Duration spacing) {
    io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
    if (spacing.isZero() || spacing.isNegative() || context == null) {
      return Future.succeededFuture();
    }
    io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
    context.owner().setTimer(spacing.toMillis(), id -> done.complete());
    return done.future();
  }

  // ---- search, preview, cover ---------------------------------------------------------------------------------

  @Override
  public boolean canSearch() {
    return true;
  }

  /**
   * {@code GET /manga?title=…&limit=…&includes[]=cover_art&contentRating[]=…} (the configured ratings), in MangaDex's
   * relevance order; each cover is {@code {uploadsUrl}/covers/{titleId}/{fileName}.256.jpg}.
   */
  @Override
  public Future<FetchOutcome<List<TitleHit>>> search(String query, int limit) {
    String what = "MangaDex search for '" + query + "'";
    return api(apiBaseUrl + "/manga", what, false, request -> {
      request.addQueryParam("title", query).addQueryParam("limit", String.valueOf(limit))
          .addQueryParam("includes[]", "cover_art").addQueryParam("order[relevance]", "desc");
      options.contentRatings().forEach(rating -> request.addQueryParam("contentRating[]", rating));
      return request;
    }).map(answer -> {
      if (!answer.ok()) {
        return answer.failure();
      }
      FetchOutcome<MangaDexJson.MangaPage> page = MangaDexJson.mangaPage(answer.value(), what);
      if (!page.ok()) {
        return page.failure();
      }
      return new FetchOutcome.Ok<>(page.value().titles().stream().limit(limit).map(manga -> new TitleHit(manga.id(),
          manga.title(), manga.altTitles(), manga.year(), manga.status(), manga.languages(), null, coverUrl(manga),
          TITLE_PAGE + manga.id())).toList());
    });
  }

  /** {@code GET /manga/{id}?includes[]=cover_art}, then its feed in every language with its groups' names. */
  @Override
  public Future<FetchOutcome<TitlePreview>> preview(String titleId) {
    Optional<String> parsed = MangaDexRefs.titleId(titleId);
    if (parsed.isEmpty()) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + titleId.trim() + "' is not a MangaDex title "
          + "URL or title id"));
    }
    String id = parsed.get();
    String what = "MangaDex title " + id;
    return api(apiBaseUrl + "/manga/" + id, what, false, request -> request.addQueryParam("includes[]", "cover_art"))
        .compose(answer -> {
          if (!answer.ok()) {
            return Future.succeededFuture(answer.<TitlePreview>failure());
          }
          FetchOutcome<MangaDexJson.Manga> manga = MangaDexJson.manga(answer.value(), what);
          if (!manga.ok()) {
            return Future.succeededFuture(manga.<TitlePreview>failure());
          }
          return previewFeed(manga.value(), 0, new ArrayList<>(), new LinkedHashMap<>());
        });
  }

  private Future<FetchOutcome<TitlePreview>> previewFeed(MangaDexJson.Manga manga, int offset,
      List<MangaDexJson.Chapter> chapters, Map<String, String> groups) {
    String what = "MangaDex feed of " + manga.id() + " at offset " + offset;
    return api(apiBaseUrl + "/manga/" + manga.id() + "/feed", what, false, request -> request
        .addQueryParam("includes[]", "scanlation_group")
        .addQueryParam("order[chapter]", "asc")
        .addQueryParam("includeFuturePublishAt", "0")
        .addQueryParam("limit", String.valueOf(options.feedPageSize()))
        .addQueryParam("offset", String.valueOf(offset)))
        .compose(answer -> {
          if (!answer.ok()) {
            return Future.succeededFuture(answer.<TitlePreview>failure());
          }
          FetchOutcome<MangaDexJson.FeedPage> page = MangaDexJson.feedPage(answer.value(), what);
          if (!page.ok()) {
            return Future.succeededFuture(page.<TitlePreview>failure());
          }
          chapters.addAll(page.value().chapters());
          page.value().groups().forEach((groupId, groupName) -> {
            if (!groupName.isEmpty() || !groups.containsKey(groupId)) {
              groups.put(groupId, groupName);
            }
          });
          int next = offset + Math.max(page.value().limit(), page.value().chapters().size());
          boolean done = page.value().chapters().isEmpty() || page.value().limit() < 1 || next >= page.value().total()
              || next >= FEED_OFFSET_CAP || next >= options.feedPageSize() * PREVIEW_FEED_PAGES;
          if (!done) {
            return previewFeed(manga, next, chapters, groups);
          }
          Instant now = clock.instant();
          List<TitlePreview.Chapter> listed = new ArrayList<>();
          for (MangaDexJson.Chapter chapter : chapters) {
            io.mangacircus.scraper.source.ChapterInfo info = MangaDexJson.info(chapter, now);
            if (info != null) {
              listed.add(new TitlePreview.Chapter(info, chapter.groupIds(), chapter.uploadedAt()));
            }
          }
          List<TitlePreview.Group> groupList = new ArrayList<>();
          groups.forEach((groupId, groupName) -> groupList.add(new TitlePreview.Group(groupId,
              groupName.isEmpty() ? groupId : groupName)));
          return Future.succeededFuture(new FetchOutcome.Ok<>(new TitlePreview(manga.id(), manga.title(),
              manga.altTitles(), manga.description(), manga.tags(), manga.year(), manga.status(), coverUrl(manga),
              TITLE_PAGE + manga.id(), groupList, listed)));
        });
  }

  private String coverUrl(MangaDexJson.Manga manga) {
    return manga.coverFile() == null ? null
        : uploadsUrl + "/covers/" + manga.id() + "/" + manga.coverFile() + ".256.jpg";
  }

  /** A cover from this source's cover site only, at most {@link #MAX_COVER_BYTES}, through the request line. */
  @Override
  public Future<FetchOutcome<PageBytes>> cover(String url) {
    if (url == null || !url.startsWith(uploadsUrl + "/covers/")) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("not a cover of this source"));
    }
    return send("cover", false, () -> http.request(url, metadataTimeoutMs), MAX_COVER_BYTES).map(answer ->
        answer.ok() ? new FetchOutcome.Ok<>(new PageBytes(SourceHttp.mediaType(answer.value()),
            SourceHttp.bytes(answer.value()))) : answer.<PageBytes>failure());
  }

  /** The most bytes of a cover read. */
  public static final int MAX_COVER_BYTES = 2 * 1024 * 1024;

  // ---- pages --------------------------------------------------------------------------------------------------

  @Override
  public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    return atHome(chapter.id()).map(outcome -> {
      if (!outcome.ok()) {
        return outcome.failure();
      }
      ChapterServer server = outcome.value();
      List<String> files = files(server.atHome());
      if (files.isEmpty()) {
        return new FetchOutcome.NotFound<>("chapter " + chapter.id() + " has no pages on MangaDex");
      }
      List<PageRef> pages = new ArrayList<>();
      for (String file : files) {
        pages.add(new PageRef(pages.size() + 1, file, MangaDexRefs.pageUrl(server.atHome().baseUrl(),
            options.dataSaver(), server.atHome().hash(), file)));
      }
      return new FetchOutcome.Ok<>(pages);
    });
  }

  /** A fresh at-home server for a chapter, remembered by the chapter's hash for {@link #page}. */
  private Future<FetchOutcome<ChapterServer>> atHome(String chapterId) {
    if (!MangaDexRefs.isId(chapterId)) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + chapterId + "' is not a MangaDex chapter id"));
    }
    String what = "MangaDex at-home server for chapter " + chapterId;
    return api(apiBaseUrl + "/at-home/server/" + chapterId, what, true, request -> request).map(answer -> {
      if (!answer.ok()) {
        return answer.failure();
      }
      FetchOutcome<MangaDexJson.AtHome> atHome = MangaDexJson.atHome(answer.value(), what);
      if (!atHome.ok()) {
        return atHome.failure();
      }
      ChapterServer server = new ChapterServer(chapterId, atHome.value(), clock.instant());
      synchronized (serversByHash) {
        serversByHash.put(atHome.value().hash(), server);
      }
      return new FetchOutcome.Ok<>(server);
    });
  }

  private List<String> files(MangaDexJson.AtHome atHome) {
    return options.dataSaver() ? atHome.dataSaver() : atHome.data();
  }

  // ---- one page -----------------------------------------------------------------------------------------------

  @Override
  public Future<FetchOutcome<PageBytes>> page(PageRef page) {
    Optional<MangaDexRefs.PageLocation> location = MangaDexRefs.pageLocation(page.url());
    ChapterServer server;
    synchronized (serversByHash) {
      server = location.map(l -> serversByHash.get(l.hash())).orElse(null);
    }
    if (server == null) {
      // Not a page this instance listed (no chapter to ask a fresh server for): fetch it where it says.
      return image(page.url(), page);
    }
    Duration age = Duration.between(server.fetchedAt(), clock.instant());
    if (age.compareTo(AT_HOME_MAX_AGE) > 0) {
      LOG.info("[MANGADEX {}] the at-home server of chapter {} is {} s old; asking for a fresh one before page {}",
          name, server.chapterId(), age.toSeconds(), page.index());
      return atHome(server.chapterId()).compose(fresh -> fresh.ok()
          ? image(urlOn(fresh.value(), page), page)
          : Future.succeededFuture(fresh.<PageBytes>failure()));
    }
    return image(urlOn(server, page), page).compose(outcome -> {
      if (outcome.ok() || !worthAFreshServer(outcome)) {
        return Future.succeededFuture(outcome);
      }
      LOG.info("[MANGADEX {}] page {} of chapter {} failed on {} ({}); asking for a fresh at-home server and trying "
          + "once more", name, page.index(), server.chapterId(), server.atHome().baseUrl(), outcome.describe());
      return atHome(server.chapterId()).compose(fresh -> {
        if (!fresh.ok()) {
          LOG.warn("[MANGADEX {}] no fresh at-home server for chapter {}: {}", name, server.chapterId(),
              fresh.describe());
          return Future.succeededFuture(fresh instanceof FetchOutcome.RateLimited<?>
              || fresh instanceof FetchOutcome.Held<?> ? fresh.<PageBytes>failure() : outcome);
        }
        if (!fresh.value().atHome().hash().equals(server.atHome().hash())) {
          LOG.warn("[MANGADEX {}] chapter {} changed on MangaDex (new hash) since its page list was read", name,
              server.chapterId());
          return Future.succeededFuture(outcome);
        }
        return image(urlOn(fresh.value(), page), page);
      });
    });
  }

  /**
   * Whether a failed page is worth a fresh at-home server: an expired server answers 403 or 404, a dead one does not
   * answer. Not a 429 (that is about us, not the server) and not a challenge page (never worked around).
   */
  private static boolean worthAFreshServer(FetchOutcome<?> outcome) {
    if (outcome instanceof FetchOutcome.AccessDenied<?> denied) {
      return denied.status() == 401 || denied.status() == 403;
    }
    return !(outcome instanceof FetchOutcome.RateLimited<?> || outcome instanceof FetchOutcome.Held<?>
        || outcome instanceof FetchOutcome.CircuitOpen<?>);
  }

  private String urlOn(ChapterServer server, PageRef page) {
    return MangaDexRefs.pageUrl(server.atHome().baseUrl(), options.dataSaver(), server.atHome().hash(), page.key());
  }

  private Future<FetchOutcome<PageBytes>> image(String url, PageRef page) {
    String what = "page " + page.index() + " (" + page.key() + ")";
    return send(what, false, () -> http.request(url, pageTimeoutMs), SourceHttp.MAX_IMAGE_BYTES).map(answer ->
        answer.ok() ? new FetchOutcome.Ok<>(new PageBytes(SourceHttp.mediaType(answer.value()),
            SourceHttp.bytes(answer.value()))) : answer.<PageBytes>failure());
  }

  // ---- requests -----------------------------------------------------------------------------------------------

  /** A GET to the API whose answer must be a JSON object. */
  private Future<FetchOutcome<JsonObject>> api(String url, String what, boolean atHome,
      Function<HttpRequest<Buffer>, HttpRequest<Buffer>> query) {
    return send(what, atHome, () -> query.apply(http.request(url, metadataTimeoutMs)
        .putHeader("Accept", "application/json")), SourceHttp.MAX_DOCUMENT_BYTES).map(answer -> answer.ok()
            ? MangaDexJson.object(answer.value().bodyAsString(), what) : answer.<JsonObject>failure());
  }

  /**
   * Sends a request in its turn and slot under MangaDex's limits ({@link RequestLine}), waiting on timers of the
   * caller's context, and reads the answer through {@link SourceHttp}. Completes with a 2xx answer or the failure it
   * stands for, or — with nothing sent and no slot taken — {@link FetchOutcome.Held} when the next slot is further
   * away than {@link #LONGEST_LINE_WAIT}: a wait MangaDex named (429, or {@code X-RateLimit-Remaining: 0} with
   * {@code X-RateLimit-Retry-After}) or our own budget one under its limits. The caller waits and asks again.
   */
  private Future<FetchOutcome<HttpResponse<Buffer>>> send(String what, boolean atHome,
      Supplier<HttpRequest<Buffer>> request, long maxBytes) {
    List<RequestLimiter.Rule> rules = atHome ? atHomeRequests : apiRequests;
    Instant now = clock.instant();
    Duration wait = limiter.wouldWait(rules);
    if (wait.compareTo(LONGEST_LINE_WAIT) > 0) {
      Instant until = now.plus(wait);
      Optional<Map.Entry<Instant, String>> hold = limiter.hold(rules);
      String reason = hold.isPresent() && !hold.get().getKey().isBefore(until) && !hold.get().getValue().isEmpty()
          ? hold.get().getValue()
          : atHome && limiter.wouldWait(apiRequests).compareTo(LONGEST_LINE_WAIT) <= 0 ? AT_HOME_HOLD : REQUEST_HOLD;
      if (until.isAfter(lastHeld.plusSeconds(1))) {
        holdsWaited.incrementAndGet();
        LOG.info("[MANGADEX {}] {} until {}: {} not sent yet", name, reason, until, what);
      }
      lastHeld = until;
      return Future.succeededFuture(new FetchOutcome.Held<>(until, reason));
    }
    return line.submit(rules, () -> http.send(request.get(), maxBytes).andThen(ar -> noteLimits(ar, what, atHome)))
        .transform(ar -> Future.succeededFuture(http.outcome(ar, maxBytes, what, false)));
  }

  /**
   * Holds every request to this API until the time an answer names: a 429's wait (and the rate is halved), or a
   * successful answer that says the budget is spent. Runs before the line lets the next request go.
   */
  private void noteLimits(io.vertx.core.AsyncResult<HttpResponse<Buffer>> ar, String what, boolean atHome) {
    if (ar.failed()) {
      return;
    }
    HttpResponse<Buffer> response = ar.result();
    Instant now = clock.instant();
    Optional<Duration> named = SourceHttp.retryAfter(response.getHeader("Retry-After"),
        response.getHeader("X-RateLimit-Retry-After"), now);
    if (response.statusCode() == 429) {
      Duration wait = SourceHttp.roundUpToSeconds(named.orElse(SourceHttp.DEFAULT_RETRY_AFTER));
      refused.incrementAndGet();
      rate.refused(now);
      limiter.holdUntil(now.plus(wait), "waiting: MangaDex refused a request (429)");
      LOG.warn("[MANGADEX {}] {} answered 429; no request to {} before {}; now at most {} requests a second", name,
          what, apiBaseUrl, now.plus(wait), String.format(java.util.Locale.ROOT, "%.2f", rate.current(now)));
    } else if (response.statusCode() >= 200 && response.statusCode() < 300
        && "0".equals(trimmed(response.getHeader("X-RateLimit-Remaining")))) {
      // An at-home budget holds only at-home look-ups; pages and other API calls go on.
      named.ifPresent(wait -> {
        if (atHome) {
          limiter.holdUntil(atHomeRequests.get(1), now.plus(wait), AT_HOME_HOLD);
        } else {
          limiter.holdUntil(now.plus(wait), REQUEST_HOLD);
        }
      });
    }
  }

  @Override
  public Optional<SourceHold> hold() {
    return limiter.hold(atHomeRequests).map(h -> new SourceHold(h.getKey(), h.getValue()));
  }

  @Override
  public void holdUntil(Instant until, String reason) {
    if (AT_HOME_HOLD.equals(reason)) {
      limiter.holdUntil(atHomeRequests.get(1), until, reason);
    } else {
      limiter.holdUntil(until, reason);
    }
  }

  @Override
  public SourceLimits limits() {
    Optional<SourceHold> hold = hold();
    return new SourceLimits(hold.map(SourceHold::until).orElse(null), hold.map(SourceHold::reason).orElse(null),
        holdsWaited.get(), refused.get(), rate.current(clock.instant()), rate.configured());
  }

  private static String trimmed(String header) {
    return header == null ? null : header.trim();
  }
}
