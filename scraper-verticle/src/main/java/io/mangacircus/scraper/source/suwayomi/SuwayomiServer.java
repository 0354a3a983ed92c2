package io.mangacircus.scraper.source.suwayomi;

import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.SourceHold;
import io.mangacircus.scraper.source.SourceHttp;
import io.mangacircus.scraper.source.SourceLimits;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request of one {@code suwayomi} source to its Suwayomi server: GraphQL operations ({@code POST
 * {base}/api/graphql}) and page images ({@code GET {base}{page}}), each with the configured {@code Authorization}
 * header, read through {@link SourceHttp}. Keeps the source's hold: after a 429 nothing is sent before its
 * {@code Retry-After}, and after the server said the source is not installed nothing before
 * {@link SuwayomiErrors#NOT_INSTALLED_RECHECK}; a call during a hold is {@link FetchOutcome.Held}, nothing sent.
 * Never logs an answer's body, an error's stack trace or the credentials.
 */
final class SuwayomiServer {

  /** The adapter's log: its lines keep the adapter's name whichever part writes them. */
  private static final Logger LOG = LoggerFactory.getLogger(SuwayomiSource.class);

  private final String name;
  private final String baseUrl;
  private final SuwayomiOptions options;
  private final SourceHttp http;
  private final long metadataTimeoutMs;
  private final long pageTimeoutMs;
  private final AtomicLong holdsAnnounced = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private SourceHold hold;

  /** @param baseUrl the server's base URL (its {@code webUISubpath} included), without a trailing slash */
  SuwayomiServer(String name, String baseUrl, SuwayomiOptions options, SourceHttp http, long metadataTimeoutMs,
      long pageTimeoutMs) {
    this.name = name;
    this.baseUrl = baseUrl;
    this.options = options;
    this.http = http;
    this.metadataTimeoutMs = metadataTimeoutMs;
    this.pageTimeoutMs = pageTimeoutMs;
  }

  /** A base URL as the server's paths are appended to it: trimmed, without a trailing slash. */
  static String withoutTrailingSlash(String baseUrl) {
    String base = baseUrl.trim();
    return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  String baseUrl() {
    return baseUrl;
  }

  String sourceId() {
    return options.sourceId();
  }

  /**
   * Runs one GraphQL operation; completes with its {@code data} when the answer carries no {@code errors}, else with
   * the failure its first error stands for ({@link SuwayomiErrors}); a transport or HTTP failure as
   * {@link SourceHttp} reads it.
   *
   * @param document the operation's GraphQL text
   * @param what what is asked, for messages
   */
  Future<FetchOutcome<JsonObject>> graphql(String operation, String document, JsonObject variables, String what) {
    Optional<FetchOutcome<JsonObject>> held = held();
    if (held.isPresent()) {
      return Future.succeededFuture(held.get());
    }
    Buffer body = new JsonObject().put("operationName", operation).put("query", document)
        .put("variables", variables).toBuffer();
    HttpRequest<Buffer> request = authorized(http.post(baseUrl + "/api/graphql", metadataTimeoutMs))
        .putHeader("Content-Type", "application/json").putHeader("Accept", "application/json");
    return http.send(request, body, SourceHttp.MAX_DOCUMENT_BYTES)
        .transform(ar -> Future.succeededFuture(answer(ar, what)));
  }

  /** A page image (or a cover) at a path the server handed out, e.g. {@code /api/v1/manga/42/chapter/17/page/0}. */
  Future<FetchOutcome<PageBytes>> image(String url, String what) {
    Optional<FetchOutcome<PageBytes>> held = held();
    if (held.isPresent()) {
      return Future.succeededFuture(held.get());
    }
    return http.send(authorized(http.request(url, pageTimeoutMs)), SourceHttp.MAX_IMAGE_BYTES).transform(ar -> {
      noteRefusal(ar, what);
      FetchOutcome<HttpResponse<Buffer>> answer = http.outcome(ar, SourceHttp.MAX_IMAGE_BYTES, what, false);
      return Future.succeededFuture(answer.ok() ? new FetchOutcome.Ok<>(new PageBytes(
          SourceHttp.mediaType(answer.value()), SourceHttp.bytes(answer.value()))) : answer.<PageBytes>failure());
    });
  }

  private HttpRequest<Buffer> authorized(HttpRequest<Buffer> request) {
    String authorization = options.authorization();
    return authorization == null ? request : request.putHeader("Authorization", authorization);
  }

  private FetchOutcome<JsonObject> answer(AsyncResult<HttpResponse<Buffer>> ar, String what) {
    noteRefusal(ar, what);
    FetchOutcome<HttpResponse<Buffer>> answer = http.outcome(ar, SourceHttp.MAX_DOCUMENT_BYTES, what, false);
    if (!answer.ok()) {
      return answer.failure();
    }
    JsonObject json;
    try {
      json = new JsonObject(SourceHttp.text(answer.value()));
    } catch (DecodeException | ClassCastException e) {
      return new FetchOutcome.ParseError<>(what + ": the Suwayomi server's answer is not a JSON object");
    }
    JsonArray errors = json.getJsonArray("errors");
    if (errors != null && !errors.isEmpty()) {
      Object first = errors.getValue(0);
      String message = first instanceof JsonObject error ? error.getString("message") : String.valueOf(first);
      FetchOutcome<JsonObject> outcome = SuwayomiErrors.outcome(message, what, options.sourceId(),
          http.clock().instant());
      return outcome instanceof FetchOutcome.Held<JsonObject> ? notInstalled(what) : outcome;
    }
    JsonObject data = json.getJsonObject("data");
    return data == null ? new FetchOutcome.ParseError<>(what + ": the Suwayomi server answered without data")
        : new FetchOutcome.Ok<>(data);
  }

  /**
   * The server does not list the source (its extension was uninstalled): nothing is sent for
   * {@link SuwayomiErrors#NOT_INSTALLED_RECHECK}, and the call is {@link FetchOutcome.Held} — the job waits in its lane
   * with the reason in the lane's status, it does not fail.
   */
  <T> FetchOutcome<T> notInstalled(String what) {
    Instant until = http.clock().instant().plus(SuwayomiErrors.NOT_INSTALLED_RECHECK);
    String reason = SuwayomiErrors.notInstalled(options.sourceId());
    holdUntil(until, reason);
    LOG.warn("[SUWAYOMI {}] {}: {}; nothing is sent to it before {}", name, what, reason, until);
    return new FetchOutcome.Held<>(until, reason);
  }

  /** A 429 of the server holds every request of this source until the wait it names. */
  private void noteRefusal(AsyncResult<HttpResponse<Buffer>> ar, String what) {
    if (ar.failed() || ar.result().statusCode() != 429) {
      return;
    }
    Instant now = http.clock().instant();
    Instant until = now.plus(SourceHttp.roundUpToSeconds(SourceHttp.retryAfter(ar.result().getHeader("Retry-After"),
        null, now).orElse(SourceHttp.DEFAULT_RETRY_AFTER)));
    refused.incrementAndGet();
    holdUntil(until, "waiting: the Suwayomi server of " + name + " refused a request (429)");
    LOG.warn("[SUWAYOMI {}] {} answered 429; nothing is sent before {}", name, what, until);
  }

  private <T> Optional<FetchOutcome<T>> held() {
    SourceHold now = hold().orElse(null);
    return now == null ? Optional.empty() : Optional.of(new FetchOutcome.Held<>(now.until(), now.reason()));
  }

  /** The hold in force, if any. */
  synchronized Optional<SourceHold> hold() {
    return hold != null && hold.until().isAfter(http.clock().instant()) ? Optional.of(hold) : Optional.empty();
  }

  /** Sends nothing before {@code until}; a later hold than the one in force replaces it. */
  synchronized void holdUntil(Instant until, String reason) {
    if (hold == null || until.isAfter(hold.until()) || !hold.until().isAfter(http.clock().instant())) {
      hold = new SourceHold(until, reason);
      holdsAnnounced.incrementAndGet();
    }
  }

  /** What the holds are doing now. */
  SourceLimits limits() {
    Optional<SourceHold> now = hold();
    return new SourceLimits(now.map(SourceHold::until).orElse(null), now.map(SourceHold::reason).orElse(null),
        holdsAnnounced.get(), refused.get(), Double.NaN, Double.NaN);
  }
}
