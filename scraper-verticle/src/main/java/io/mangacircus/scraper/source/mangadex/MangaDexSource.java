package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.HttpOutcomes;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.RequestLine;
import io.mangacircus.scraper.source.RequestLimiter;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MangaDex adapter, over its public JSON API: title from {@code GET /manga/{id}}, English chapters from the
 * paginated {@code GET /manga/{id}/feed}, pages from {@code GET /at-home/server/{chapterId}} and the MangaDex@Home
 * server it names. Keeps MangaDex's published limits for every request it sends, images included — at most 5 a
 * second and 40 at-home look-ups a minute — by sending one request at a time per API root, each at least 210 ms after
 * the previous one started and ended, across every instance that talks to that API ({@link #sharedLine}); honours
 * {@code Retry-After} and {@code X-RateLimit-Retry-After}. An at-home server is used for at most 14 minutes (they are
 * valid for about 15); a page that fails on it gets one fresh server and one more try. Does not log in, so it only
 * sees what MangaDex shows anonymously, and does not report image-server health to MangaDex@Home.
 */
public final class MangaDexSource implements Source {

  private static final Logger LOG = LoggerFactory.getLogger(MangaDexSource.class);

  /** The API root used when a source's {@code baseUrl} is empty. */
  public static final String DEFAULT_BASE_URL = "https://api.mangadex.org";

  /**
   * Every request: at most 5 a second, each starting at least 210 ms (200 ms plus 10 ms for timer jitter) after the
   * previous one started and after it ended.
   */
  static final RequestLimiter.Rule ALL_REQUESTS = new RequestLimiter.Rule("all requests", 5, Duration.ofSeconds(1),
      Duration.ofMillis(210));

  /** {@code /at-home/server} look-ups: at most 40 a minute. */
  static final RequestLimiter.Rule AT_HOME = new RequestLimiter.Rule("at-home server look-ups", 40,
      Duration.ofMinutes(1), Duration.ZERO);

  /** How long an at-home server is used before a fresh one is asked for (MangaDex: valid for about 15 minutes). */
  static final Duration AT_HOME_MAX_AGE = Duration.ofMinutes(14);

  private static final List<RequestLimiter.Rule> API_REQUESTS = List.of(ALL_REQUESTS);
  private static final List<RequestLimiter.Rule> AT_HOME_REQUESTS = List.of(ALL_REQUESTS, AT_HOME);

  /** A hold (after a 429) up to this long is waited out; a longer one answers "rate limited" without sending. */
  static final Duration LONGEST_HOLD_WAIT = Duration.ofSeconds(30);

  /** Wait assumed when a 429 names none. */
  private static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(60);

  /** Chapters whose at-home server is remembered (the lane works on one at a time). */
  private static final int REMEMBERED_SERVERS = 32;

  /** The API caps {@code offset + limit} of any list at 10 000. */
  private static final int FEED_OFFSET_CAP = 10_000;

  private static final Map<String, RequestLine> SHARED_LINES = new ConcurrentHashMap<>();

  /** Where a chapter's pages are served now, and since when. */
  private record ChapterServer(String chapterId, MangaDexJson.AtHome atHome, Instant fetchedAt) {
  }

  private final String name;
  private final String apiBaseUrl;
  private final MangaDexOptions options;
  private final WebClient client;
  private final RequestLine line;
  private final RequestLimiter limiter;
  private final InstantSource clock;
  private final long metadataTimeoutMs;
  private final long pageTimeoutMs;
  private final List<String> challengeMarkers;
  private final Map<String, ChapterServer> serversByHash = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, ChapterServer> eldest) {
      return size() > REMEMBERED_SERVERS;
    }
  };

  /**
   * @param apiBaseUrl the API root, e.g. {@code https://api.mangadex.org}
   * @param line the line every request to this API waits in; share one per API ({@link #sharedLine})
   * @param clock the clock of {@code line}'s limiter
   * @param challengeMarkers texts that mark an HTML answer as an access challenge
   */
  public MangaDexSource(String name, String apiBaseUrl, MangaDexOptions options, WebClient client, RequestLine line,
      InstantSource clock, long metadataTimeoutMs, long pageTimeoutMs, List<String> challengeMarkers) {
    this.name = name;
    this.apiBaseUrl = normalise(apiBaseUrl);
    this.options = options;
    this.client = client;
    this.line = line;
    this.limiter = line.limiter();
    this.clock = clock;
    this.metadataTimeoutMs = metadataTimeoutMs;
    this.pageTimeoutMs = pageTimeoutMs;
    this.challengeMarkers = List.copyOf(challengeMarkers);
  }

  /**
   * The one request line (and limiter) of every adapter instance in this JVM that talks to {@code apiBaseUrl} — the
   * lane's, startup recovery's, and those of any other source configured with the same API — so that together they
   * keep MangaDex's per-client limits. It is keyed by the API root rather than the source name because MangaDex counts
   * per client, not per configured name; it is per JVM (not per Vert.x instance) for the same reason.
   */
  public static RequestLine sharedLine(String apiBaseUrl) {
    return SHARED_LINES.computeIfAbsent(normalise(apiBaseUrl),
        url -> new RequestLine(new RequestLimiter(InstantSource.system())));
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
    Optional<String> parsed = MangaDexRefs.titleId(titleRef);
    if (parsed.isEmpty()) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + titleRef.trim() + "' is not a MangaDex title "
          + "URL (https://mangadex.org/title/<id>/...) or title id (a UUID)"));
    }
    String id = parsed.get();
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
          return feed(id, 0, new ArrayList<>()).map(feed -> feed.ok()
              ? new FetchOutcome.Ok<>(new TitleInfo(id, title.value(), MangaDexJson.chapters(feed.value())))
              : feed.<TitleInfo>failure());
        });
  }

  /** Every page of the English feed from {@code offset} on, appended to {@code chapters}. */
  private Future<FetchOutcome<List<MangaDexJson.Chapter>>> feed(String id, int offset,
      List<MangaDexJson.Chapter> chapters) {
    String what = "MangaDex feed of " + id + " at offset " + offset;
    int limit = Math.min(options.feedPageSize(), FEED_OFFSET_CAP - offset);
    return api(apiBaseUrl + "/manga/" + id + "/feed", what, false, request -> request
        .addQueryParam("translatedLanguage[]", "en")
        .addQueryParam("order[chapter]", "asc")
        .addQueryParam("limit", String.valueOf(limit))
        .addQueryParam("offset", String.valueOf(offset)))
        .compose(answer -> {
          if (!answer.ok()) {
            return Future.succeededFuture(answer.<List<MangaDexJson.Chapter>>failure());
          }
          FetchOutcome<MangaDexJson.FeedPage> page = MangaDexJson.feedPage(answer.value(), what);
          if (!page.ok()) {
            return Future.succeededFuture(page.<List<MangaDexJson.Chapter>>failure());
          }
          chapters.addAll(page.value().chapters());
          int next = offset + Math.max(page.value().limit(), page.value().chapters().size());
          boolean done = page.value().chapters().isEmpty() || page.value().limit() < 1 || next >= page.value().total();
          if (done) {
            return Future.succeededFuture(new FetchOutcome.Ok<>(chapters));
          }
          if (next >= FEED_OFFSET_CAP) {
            LOG.warn("[MANGADEX {}] title {} lists {} chapters; the API serves only the first {}", name, id,
                page.value().total(), FEED_OFFSET_CAP);
            return Future.succeededFuture(new FetchOutcome.Ok<>(chapters));
          }
          return feed(id, next, chapters);
        });
  }

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
          return Future.succeededFuture(fresh instanceof FetchOutcome.RateLimited<?> ? fresh.<PageBytes>failure()
              : outcome);
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
    return !(outcome instanceof FetchOutcome.RateLimited<?>);
  }

  private String urlOn(ChapterServer server, PageRef page) {
    return MangaDexRefs.pageUrl(server.atHome().baseUrl(), options.dataSaver(), server.atHome().hash(), page.key());
  }

  private Future<FetchOutcome<PageBytes>> image(String url, PageRef page) {
    String what = "page " + page.index() + " (" + page.key() + ")";
    return send(what, false, () -> client.getAbs(url).timeout(pageTimeoutMs)).map(sent -> {
      if (!sent.ok()) {
        return sent.<PageBytes>failure();
      }
      HttpResponse<Buffer> response = sent.value();
      FetchOutcome<PageBytes> failure = statusFailure(response, what);
      if (failure != null) {
        return failure;
      }
      String type = HttpOutcomes.mediaType(response);
      if (type.startsWith("text/html")) {
        Optional<String> marker = HttpOutcomes.challengeMarker(response.bodyAsString(), challengeMarkers);
        if (marker.isPresent()) {
          return new FetchOutcome.AccessDenied<>(200, what + " answered a challenge page (marker '" + marker.get()
              + "')");
        }
      }
      Buffer body = response.body();
      return new FetchOutcome.Ok<>(new PageBytes(type, body == null ? new byte[0] : body.getBytes()));
    });
  }

  // ---- requests -----------------------------------------------------------------------------------------------

  /** A GET to the API whose answer must be a JSON object. */
  private Future<FetchOutcome<JsonObject>> api(String url, String what, boolean atHome,
      Function<HttpRequest<Buffer>, HttpRequest<Buffer>> query) {
    return send(what, atHome, () -> query.apply(client.getAbs(url).timeout(metadataTimeoutMs)
        .putHeader("Accept", "application/json"))).map(sent -> {
          if (!sent.ok()) {
            return sent.<JsonObject>failure();
          }
          HttpResponse<Buffer> response = sent.value();
          FetchOutcome<JsonObject> failure = statusFailure(response, what);
          if (failure != null) {
            return failure;
          }
          String body = response.bodyAsString();
          if (HttpOutcomes.mediaType(response).startsWith("text/html")) {
            Optional<String> marker = HttpOutcomes.challengeMarker(body, challengeMarkers);
            if (marker.isPresent()) {
              return new FetchOutcome.AccessDenied<>(200, what + " answered a challenge page (marker '"
                  + marker.get() + "')");
            }
          }
          return MangaDexJson.object(body, what);
        });
  }

  /**
   * Sends a request in its turn and slot under MangaDex's limits ({@link RequestLine}), waiting on timers of the
   * caller's context. Completes with the response (any status), a network error, or — with nothing sent and no slot taken — a
   * rate-limited outcome when MangaDex asked for a pause longer than {@link #LONGEST_HOLD_WAIT}.
   */
  private Future<FetchOutcome<HttpResponse<Buffer>>> send(String what, boolean atHome,
      Supplier<HttpRequest<Buffer>> request) {
    Optional<Instant> hold = limiter.hold();
    if (hold.isPresent()) {
      Duration left = Duration.between(clock.instant(), hold.get());
      if (left.compareTo(LONGEST_HOLD_WAIT) > 0) {
        return Future.succeededFuture(new FetchOutcome.RateLimited<>(roundUpToSeconds(left), what
            + " not sent: MangaDex asked for no requests until " + hold.get()));
      }
    }
    return line.submit(atHome ? AT_HOME_REQUESTS : API_REQUESTS, () -> request.get().send()).transform(ar ->
        Future.succeededFuture(ar.succeeded() ? new FetchOutcome.Ok<>(ar.result())
            : HttpOutcomes.<HttpResponse<Buffer>>ofTransportError(ar.cause(), what)));
  }

  /**
   * The failure a non-2xx answer stands for (null for a 2xx one). A 429 holds every request to this API until the
   * time MangaDex names; a 2xx answer that says the budget is spent ({@code X-RateLimit-Remaining: 0}) does too.
   */
  private <T> FetchOutcome<T> statusFailure(HttpResponse<Buffer> response, String what) {
    int status = response.statusCode();
    Instant now = clock.instant();
    Optional<Duration> named = retryAfter(response.getHeader("Retry-After"),
        response.getHeader("X-RateLimit-Retry-After"), now);
    if (status == 429) {
      Duration wait = named.orElse(DEFAULT_RETRY_AFTER);
      limiter.holdUntil(now.plus(wait));
      LOG.warn("[MANGADEX {}] {} answered 429; no request to {} before {}", name, what, apiBaseUrl, now.plus(wait));
      return new FetchOutcome.RateLimited<>(roundUpToSeconds(wait), what + " answered 429" + detail(response));
    }
    if (status >= 200 && status < 300) {
      if ("0".equals(trimmed(response.getHeader("X-RateLimit-Remaining"))) && named.isPresent()) {
        limiter.holdUntil(now.plus(named.get()));
      }
      return null;
    }
    if (status == 404 || status == 410) {
      return new FetchOutcome.NotFound<>(what + detail(response));
    }
    if (status == 401 || status == 403) {
      return new FetchOutcome.AccessDenied<>(status, what + " answered " + status + detail(response));
    }
    if (status >= 500) {
      return new FetchOutcome.ServerError<>(status, what + " answered " + status + detail(response), named.orElse(null));
    }
    return new FetchOutcome.ParseError<>(what + " answered " + status + " (unexpected status)" + detail(response));
  }

  private static String detail(HttpResponse<Buffer> response) {
    String detail = MangaDexJson.errorDetail(response.bodyAsString());
    return detail.isEmpty() ? "" : " (" + (detail.length() > 200 ? detail.substring(0, 200) + "…" : detail) + ")";
  }

  /**
   * The wait a response names: {@code Retry-After} (seconds or an HTTP date) and {@code X-RateLimit-Retry-After}
   * (epoch seconds, MangaDex's own); the longer when both are there.
   */
  static Optional<Duration> retryAfter(String retryAfterHeader, String epochHeader, Instant now) {
    Duration wait = null;
    String retryAfter = trimmed(retryAfterHeader);
    if (retryAfter != null && retryAfter.matches("\\d{1,9}")) {
      wait = Duration.ofSeconds(Long.parseLong(retryAfter));
    } else if (retryAfter != null) {
      try {
        wait = Duration.between(now, ZonedDateTime.parse(retryAfter, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
      } catch (DateTimeParseException e) {
        LOG.debug("unreadable Retry-After '{}'", retryAfter);
      }
    }
    String epoch = trimmed(epochHeader);
    if (epoch != null && epoch.matches("\\d{1,12}")) {
      Duration untilEpoch = Duration.between(now, Instant.ofEpochSecond(Long.parseLong(epoch)));
      wait = wait == null || untilEpoch.compareTo(wait) > 0 ? untilEpoch : wait;
    }
    if (wait == null) {
      return Optional.empty();
    }
    return Optional.of(wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait);
  }

  private static Duration roundUpToSeconds(Duration d) {
    long seconds = d.toSeconds() + (d.toNanosPart() == 0 ? 0 : 1);
    return Duration.ofSeconds(Math.max(1, seconds));
  }

  private static String trimmed(String header) {
    return header == null ? null : header.trim();
  }
}
