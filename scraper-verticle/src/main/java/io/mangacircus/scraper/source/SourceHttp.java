package io.mangacircus.scraper.source;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.impl.ClientPhase;
import io.vertx.ext.web.client.impl.HttpContext;
import io.vertx.ext.web.client.impl.HttpRequestImpl;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The one HTTP pipeline of every source adapter: a GET whose body is read up to a limit, then the answer turned into
 * a {@link FetchOutcome} by one set of rules — challenge pages (by marker, never bypassed), status → outcome, and
 * {@code Retry-After} as seconds or an HTTP date (plus MangaDex's {@code X-RateLimit-Retry-After} epoch seconds)
 * measured against the injected clock. See docs/sources.md.
 */
public final class SourceHttp {

  /** The most bytes of an HTML or JSON answer read; a longer one is a parser failure. */
  public static final int MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
  /** The most bytes of one page image read; a longer one is a parser failure. */
  public static final int MAX_IMAGE_BYTES = 64 * 1024 * 1024;

  /** Wait assumed when a 429 names none. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(60);

  private final WebClient client;
  private final InstantSource clock;
  private final List<String> challengeMarkers;
  private final Function<String, String> detail;
  /** The event loop that runs the exchanges asked for from a worker context (a lane); made on first use. */
  private volatile Context exchanges;

  /**
   * @param challengeMarkers texts that mark an HTML answer as an access challenge
   * @param detail what of an error body goes into a failure's message (e.g. an API's error text); empty for nothing
   */
  public SourceHttp(WebClient client, InstantSource clock, List<String> challengeMarkers,
      Function<String, String> detail) {
    this.client = client;
    this.clock = clock;
    this.challengeMarkers = List.copyOf(challengeMarkers);
    this.detail = detail;
  }

  /** As above with no error detail. */
  public SourceHttp(WebClient client, InstantSource clock, List<String> challengeMarkers) {
    this(client, clock, challengeMarkers, body -> "");
  }

  /** The clock {@code Retry-After} dates are measured against. */
  public InstantSource clock() {
    return clock;
  }

  /** A GET to {@code url} with a timeout, for headers to be added before {@link #send}. */
  public HttpRequest<Buffer> request(String url, long timeoutMs) {
    return client.getAbs(url).timeout(timeoutMs);
  }

  /** A POST to {@code url} with a timeout, for headers to be added before {@link #send(HttpRequest, Buffer, long)}. */
  public HttpRequest<Buffer> post(String url, long timeoutMs) {
    return client.postAbs(url).timeout(timeoutMs);
  }

  /**
   * Sends a request whose body is read up to {@code maxBytes}; fails on transport errors and longer bodies. Asked from
   * a worker context (a lane), the exchange runs on an event loop and only the finished answer is handed to the
   * caller's context, once: otherwise every chunk of the body would be a task of the worker pool.
   */
  public Future<HttpResponse<Buffer>> send(HttpRequest<Buffer> request, long maxBytes) {
    return send(request, null, maxBytes);
  }

  /** As {@link #send(HttpRequest, long)} with a request body (null for none). */
  public Future<HttpResponse<Buffer>> send(HttpRequest<Buffer> request, Buffer body, long maxBytes) {
    HttpRequest<Buffer> capped = request.as(new CappedBody(maxBytes));
    Context caller = Vertx.currentContext();
    if (caller == null || !caller.isWorkerContext()) {
      return body == null ? capped.send() : capped.sendBuffer(body);
    }
    Promise<HttpResponse<Buffer>> answer = Promise.promise();
    exchanges(caller.owner()).runOnContext(v -> {
      Future<HttpResponse<Buffer>> sent;
      try {
        sent = body == null ? capped.send() : capped.sendBuffer(body);
      } catch (RuntimeException e) {
        sent = Future.failedFuture(e);
      }
      sent.onComplete(ar -> caller.runOnContext(back -> answer.handle(ar)));
    });
    return answer.future();
  }

  private Context exchanges(Vertx vertx) {
    Context context = exchanges;
    if (context == null) {
      synchronized (this) {
        if (exchanges == null) {
          exchanges = ((VertxInternal) vertx).createEventLoopContext();
        }
        context = exchanges;
      }
    }
    return context;
  }

  /**
   * A web-client interceptor ({@link Sources#client} installs it): when an answer's headers are in, its
   * {@code Content-Length} sizes the body's array, and a declared length over the cap fails the request before any of
   * the body is read.
   */
  static void declaredLength(HttpContext<?> context) {
    if (context.phase() == ClientPhase.RECEIVE_RESPONSE && context.request() instanceof HttpRequestImpl<?> request
        && request.bodyCodec() instanceof CappedBody capped) {
      CappedBody.TooLarge refused = capped.declared(context.clientResponse().getHeader("Content-Length"));
      if (refused != null) {
        context.fail(refused);
        return;
      }
    }
    context.next();
  }

  /** {@link #send} then {@link #outcome}: a 2xx answer that is not a challenge page, or the failure it stands for. */
  public Future<FetchOutcome<HttpResponse<Buffer>>> get(HttpRequest<Buffer> request, long maxBytes, String what,
      boolean document) {
    return send(request, maxBytes).transform(ar -> Future.succeededFuture(outcome(ar, maxBytes, what, document)));
  }

  /**
   * What an answer (or its absence) means: a transport error or a body over {@code maxBytes} first, then a challenge
   * page (for a {@code document} request any body, else only an HTML one; with a success, 403, 429 or 503 status),
   * then the status. {@link FetchOutcome.Ok} carries the 2xx response.
   */
  public FetchOutcome<HttpResponse<Buffer>> outcome(AsyncResult<HttpResponse<Buffer>> ar, long maxBytes, String what,
      boolean document) {
    if (ar.failed()) {
      if (ar.cause() instanceof CappedBody.TooLarge) {
        return new FetchOutcome.ParseError<>(what + " is larger than " + Math.max(1, maxBytes / (1024 * 1024))
            + " MiB; it was not read further");
      }
      return transportError(ar.cause(), what);
    }
    HttpResponse<Buffer> response = ar.result();
    int status = response.statusCode();
    if (challengeStatus(status) && (document || mediaType(response).startsWith("text/html"))) {
      Optional<String> marker = challengeMarker(text(response), challengeMarkers);
      if (marker.isPresent()) {
        return new FetchOutcome.AccessDenied<>(status, what + " answered a challenge page (marker '" + marker.get()
            + "')");
      }
    }
    FetchOutcome<HttpResponse<Buffer>> failure = statusFailure(status, response::getHeader, what,
        status >= 200 && status < 300 ? "" : detail.apply(text(response)));
    return failure == null ? new FetchOutcome.Ok<>(response) : failure;
  }

  /**
   * The failure a status stands for, null for a 2xx one: 404/410 not found, 429 rate limited (the named wait, else
   * {@link #DEFAULT_RETRY_AFTER}), 401/403 access denied, 407 (the proxy refused its credentials) a network error,
   * 5xx server error (with the named wait if any), anything else an unexpected answer.
   *
   * @param header a response header by name, null when absent
   * @param detail added to the message in brackets when not empty
   */
  public <T> FetchOutcome<T> statusFailure(int status, Function<String, String> header, String what, String detail) {
    if (status >= 200 && status < 300) {
      return null;
    }
    String more = detail == null || detail.isEmpty() ? ""
        : " (" + (detail.length() > 200 ? detail.substring(0, 200) + "…" : detail) + ")";
    String message = what + " answered " + status + more;
    Optional<Duration> named = retryAfter(header.apply("Retry-After"), header.apply("X-RateLimit-Retry-After"),
        clock.instant());
    if (status == 404 || status == 410) {
      return new FetchOutcome.NotFound<>(what + more);
    }
    if (status == 429) {
      return new FetchOutcome.RateLimited<>(roundUpToSeconds(named.orElse(DEFAULT_RETRY_AFTER)), message);
    }
    if (status == 407) {
      // Only a proxy answers 407: the source's own proxy refused its credentials, a failure of the way to the site.
      return new FetchOutcome.NetworkError<>(what + " was refused by the proxy (407: its credentials were not "
          + "accepted)");
    }
    if (status == 401 || status == 403) {
      return new FetchOutcome.AccessDenied<>(status, message);
    }
    if (status >= 500) {
      return new FetchOutcome.ServerError<>(status, message, named.map(SourceHttp::roundUpToSeconds).orElse(null));
    }
    return new FetchOutcome.ParseError<>(message + " (unexpected status)");
  }

  /** The outcome of a request that got no answer. */
  public static <T> FetchOutcome<T> transportError(Throwable error, String what) {
    String kind = error instanceof TimeoutException || String.valueOf(error.getMessage()).toLowerCase(Locale.ROOT)
        .contains("timeout") ? "timed out" : "failed";
    return new FetchOutcome.NetworkError<>(what + " " + kind + ": " + error.getMessage());
  }

  /**
   * The wait a response names: {@code Retry-After} (seconds or an HTTP date) and {@code X-RateLimit-Retry-After}
   * (epoch seconds, MangaDex's own); the longer when both are there; at least one second; empty when none is readable.
   */
  public static Optional<Duration> retryAfter(String retryAfterHeader, String epochHeader, Instant now) {
    Duration wait = null;
    String retryAfter = retryAfterHeader == null ? null : retryAfterHeader.trim();
    if (retryAfter != null && retryAfter.matches("\\d{1,9}")) {
      wait = Duration.ofSeconds(Long.parseLong(retryAfter));
    } else if (retryAfter != null) {
      try {
        wait = Duration.between(now, ZonedDateTime.parse(retryAfter, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
      } catch (DateTimeParseException e) {
        wait = null;
      }
    }
    String epoch = epochHeader == null ? null : epochHeader.trim();
    if (epoch != null && epoch.matches("\\d{1,12}")) {
      Duration untilEpoch = Duration.between(now, Instant.ofEpochSecond(Long.parseLong(epoch)));
      wait = wait == null || untilEpoch.compareTo(wait) > 0 ? untilEpoch : wait;
    }
    if (wait == null) {
      return Optional.empty();
    }
    return Optional.of(wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait);
  }

  /** A wait in whole seconds, rounded up, at least one. */
  public static Duration roundUpToSeconds(Duration d) {
    long seconds = d.toSeconds() + (d.toNanosPart() == 0 ? 0 : 1);
    return Duration.ofSeconds(Math.max(1, seconds));
  }

  /** Statuses a challenge page comes with: success, or the refusals bot walls use (403, 429, 503). */
  static boolean challengeStatus(int status) {
    return (status >= 200 && status < 300) || status == 403 || status == 429 || status == 503;
  }

  /** The challenge marker a body contains, if any (case-insensitive). */
  public static Optional<String> challengeMarker(String body, List<String> markers) {
    if (body == null || markers.isEmpty()) {
      return Optional.empty();
    }
    String lower = body.toLowerCase(Locale.ROOT);
    return markers.stream().filter(m -> !m.isBlank() && lower.contains(m.toLowerCase(Locale.ROOT))).findFirst();
  }

  /** The media type without parameters, lower-case. */
  public static String mediaType(HttpResponse<Buffer> response) {
    String type = response.getHeader("Content-Type");
    if (type == null) {
      return "";
    }
    int semicolon = type.indexOf(';');
    return (semicolon < 0 ? type : type.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
  }

  /** The body as text, in the charset the answer declares (UTF-8 when it declares none or an unknown one). */
  public static String text(HttpResponse<Buffer> response) {
    Buffer body = response.body();
    if (body == null) {
      return "";
    }
    return new String(CappedBody.bytes(body), charset(response.getHeader("Content-Type")));
  }

  /** The body's bytes (those {@link #send} read are handed over without a copy: never change them); empty for none. */
  public static byte[] bytes(HttpResponse<Buffer> response) {
    Buffer body = response.body();
    return body == null ? new byte[0] : CappedBody.bytes(body);
  }

  /** The charset a {@code Content-Type} declares; UTF-8 when none or an unknown one. */
  public static Charset charset(String contentType) {
    if (contentType != null) {
      for (String part : contentType.split(";")) {
        String p = part.trim();
        if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
          String name = p.substring("charset=".length()).replace("\"", "").trim();
          try {
            return Charset.forName(name);
          } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
          }
        }
      }
    }
    return StandardCharsets.UTF_8;
  }
}
