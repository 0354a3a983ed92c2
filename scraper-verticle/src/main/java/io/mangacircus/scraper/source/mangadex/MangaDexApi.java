package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.LearnedRate;
import io.mangacircus.scraper.source.RequestLimiter;
import io.mangacircus.scraper.source.RequestLine;
import io.mangacircus.scraper.source.SourceHold;
import io.mangacircus.scraper.source.SourceHttp;
import io.mangacircus.scraper.source.SourceLimits;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request the MangaDex adapter sends, images included, in its turn under MangaDex's published limits: at most 5
 * a second and 40 at-home look-ups a minute, one request at a time per API root, each at least 210 ms after the
 * previous one started and ended (the {@link RequestLine} every adapter of that API root in this process shares).
 * Honours {@code Retry-After} and {@code X-RateLimit-Retry-After}, and says what the limits are doing.
 */
final class MangaDexApi {

  /** The adapter's log: its lines keep the adapter's name whichever part writes them. */
  private static final Logger LOG = LoggerFactory.getLogger(MangaDexSource.class);

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

  /** The API caps {@code offset + limit} of any list at 10 000. */
  static final int FEED_OFFSET_CAP = 10_000;

  private final String name;
  private final String baseUrl;
  private final SourceHttp http;
  private final RequestLine line;
  private final RequestLimiter limiter;
  private final InstantSource clock;
  private final long metadataTimeoutMs;
  private final List<RequestLimiter.Rule> apiRequests;
  private final List<RequestLimiter.Rule> atHomeRequests;
  private final LearnedRate rate;
  private final AtomicLong holdsWaited = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private volatile Instant lastHeld = Instant.MIN;

  /**
   * @param baseUrl the API root, normalised, e.g. {@code https://api.mangadex.org}
   * @param line the line every request to this API waits in; one per API root in a process
   * @param clock the clock of {@code line}'s limiter
   * @param challengeMarkers texts that mark an HTML answer as an access challenge
   */
  MangaDexApi(String name, String baseUrl, MangaDexOptions options, WebClient client, RequestLine line,
      InstantSource clock, long metadataTimeoutMs, List<String> challengeMarkers) {
    this.name = name;
    this.baseUrl = baseUrl;
    this.http = new SourceHttp(client, clock, challengeMarkers, MangaDexJson::errorDetail);
    this.line = line;
    this.limiter = line.limiter();
    this.clock = clock;
    this.metadataTimeoutMs = metadataTimeoutMs;
    // One under every published limit: a server counting a rolling window never sees the limit reached.
    RequestLimiter.Rule atHome = new RequestLimiter.Rule("at-home server look-ups", options.atHomeLimit() - 1,
        Duration.ofSeconds(options.atHomeWindowSeconds()).plus(WINDOW_SLACK), Duration.ZERO);
    this.apiRequests = List.of(ALL_REQUESTS);
    this.atHomeRequests = List.of(ALL_REQUESTS, atHome);
    this.rate = limiter.learnedRate(CONFIGURED_RPS);
  }

  /** The source's configured name, for log lines. */
  String name() {
    return name;
  }

  /** The API root, without a trailing slash. */
  String baseUrl() {
    return baseUrl;
  }

  /** The clock of the request line. */
  InstantSource clock() {
    return clock;
  }

  /** A GET of {@code url} (an image, a cover) that times out after {@code timeoutMs}; sent by {@link #send}. */
  HttpRequest<Buffer> request(String url, long timeoutMs) {
    return http.request(url, timeoutMs);
  }

  /** A GET to the API whose answer must be a JSON object. */
  Future<FetchOutcome<JsonObject>> api(String url, String what, boolean atHome,
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
  Future<FetchOutcome<HttpResponse<Buffer>>> send(String what, boolean atHome,
      Supplier<HttpRequest<Buffer>> request, long maxBytes) {
    List<RequestLimiter.Rule> rules = atHome ? atHomeRequests : apiRequests;
    Instant now = clock.instant();
    Duration wait = limiter.wouldWait(rules);
    if (wait.compareTo(LONGEST_LINE_WAIT) > 0) {
      Instant until = now.plus(wait);
      Optional<Map.Entry<Instant, String>> hold = limiter.hold(rules);
      String reason = hold.isPresent() && !hold.get().getKey().isBefore(until) && !hold.get().getValue().isEmpty()
          ? hold.get().getValue()
          : atHome && limiter.wouldWait(apiRequests).compareTo(LONGEST_LINE_WAIT) <= 0
              ? MangaDexSource.AT_HOME_HOLD : MangaDexSource.REQUEST_HOLD;
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
  private void noteLimits(AsyncResult<HttpResponse<Buffer>> ar, String what, boolean atHome) {
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
          what, baseUrl, now.plus(wait), String.format(Locale.ROOT, "%.2f", rate.current(now)));
    } else if (response.statusCode() >= 200 && response.statusCode() < 300
        && "0".equals(trimmed(response.getHeader("X-RateLimit-Remaining")))) {
      // An at-home budget holds only at-home look-ups; pages and other API calls go on.
      named.ifPresent(wait -> {
        if (atHome) {
          limiter.holdUntil(atHomeRequests.get(1), now.plus(wait), MangaDexSource.AT_HOME_HOLD);
        } else {
          limiter.holdUntil(now.plus(wait), MangaDexSource.REQUEST_HOLD);
        }
      });
    }
  }

  /** The hold in force for at-home look-ups (and so for every request), if any. */
  Optional<SourceHold> hold() {
    return limiter.hold(atHomeRequests).map(h -> new SourceHold(h.getKey(), h.getValue()));
  }

  /** Sends nothing before {@code until}: at-home look-ups only for the at-home hold, every request otherwise. */
  void holdUntil(Instant until, String reason) {
    if (MangaDexSource.AT_HOME_HOLD.equals(reason)) {
      limiter.holdUntil(atHomeRequests.get(1), until, reason);
    } else {
      limiter.holdUntil(until, reason);
    }
  }

  /** What the limits are doing now. */
  SourceLimits limits() {
    Optional<SourceHold> hold = hold();
    return new SourceLimits(hold.map(SourceHold::until).orElse(null), hold.map(SourceHold::reason).orElse(null),
        holdsWaited.get(), refused.get(), rate.current(clock.instant()), rate.configured());
  }

  private static String trimmed(String header) {
    return header == null ? null : header.trim();
  }
}
