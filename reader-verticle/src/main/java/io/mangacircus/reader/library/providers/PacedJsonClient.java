package io.mangacircus.reader.library.providers;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;

/**
 * One provider's JSON requests: paced ({@link RequestPacer}), answered from its cache ({@link AnswerCache}) when asked
 * again, and a 429 waited out as its {@code Retry-After} says before one more try. A 404 is an empty answer.
 */
public final class PacedJsonClient {

  /** Waits, then completes: {@link #timers} in the product, a test's own clock in tests. */
  @FunctionalInterface
  public interface Delays {
    Future<Void> after(Duration delay);
  }

  /** How many times a request is sent at most when the provider answers 429. */
  static final int ATTEMPTS = 3;
  /** The pause after a 429 without {@code Retry-After}, or after {@code X-RateLimit-Remaining: 0}. */
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(60);
  /** A longer {@code Retry-After} is not waited for: the admin is told to try later. */
  static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

  private final String provider;
  private final WebClient client;
  private final RequestPacer pacer;
  private final AnswerCache<Optional<JsonObject>> cache;
  private final Delays delays;
  private final InstantSource clock;

  public PacedJsonClient(String provider, WebClient client, InstantSource clock, Duration interval, Duration ttl,
      int cachedAnswers, Delays delays) {
    this.provider = provider;
    this.client = client;
    this.clock = clock;
    this.pacer = new RequestPacer(clock, interval);
    this.cache = new AnswerCache<>(clock, ttl, cachedAnswers);
    this.delays = delays;
  }

  /** Delays by Vert.x timers. */
  public static Delays timers(Vertx vertx) {
    return delay -> {
      if (delay.isZero() || delay.isNegative()) {
        return Future.succeededFuture();
      }
      Promise<Void> waited = Promise.promise();
      vertx.setTimer(Math.max(1, delay.toMillis()), id -> waited.complete());
      return waited.future();
    };
  }

  /** POSTs {@code body} as JSON; the answer's JSON, empty on a 404. */
  public Future<Optional<JsonObject>> post(String url, JsonObject body) {
    return send(HttpMethod.POST, url, body, "POST " + url + " " + body.encode());
  }

  /** GETs {@code url}; the answer's JSON, empty on a 404. */
  public Future<Optional<JsonObject>> get(String url) {
    return send(HttpMethod.GET, url, null, "GET " + url);
  }

  /** How many answers are kept. */
  public int cached() {
    return cache.size();
  }

  private Future<Optional<JsonObject>> send(HttpMethod method, String url, JsonObject body, String key) {
    Optional<Optional<JsonObject>> kept = cache.get(key);
    if (kept.isPresent()) {
      return Future.succeededFuture(kept.get());
    }
    return attempt(method, url, body, 1).onSuccess(answer -> cache.put(key, answer));
  }

  private Future<Optional<JsonObject>> attempt(HttpMethod method, String url, JsonObject body, int attempt) {
    return delays.after(pacer.reserve()).compose(v -> {
      HttpRequest<Buffer> request = client.requestAbs(method, url).putHeader("Accept", "application/json")
          .idleTimeout(15_000);
      return body == null ? request.send() : request.sendJsonObject(body);
    }).recover(e -> Future.failedFuture(new ProviderFailure(provider, "cannot reach " + url + ": " + e.getMessage())))
        .compose(response -> answer(method, url, body, attempt, response));
  }

  private Future<Optional<JsonObject>> answer(HttpMethod method, String url, JsonObject body, int attempt,
      HttpResponse<Buffer> response) {
    if ("0".equals(response.getHeader("X-RateLimit-Remaining")) && response.statusCode() != 429) {
      pacer.pauseFor(retryAfter(response).orElse(DEFAULT_PAUSE));
    }
    if (response.statusCode() == 429) {
      Duration wait = retryAfter(response).orElse(DEFAULT_PAUSE);
      pacer.pauseFor(wait);
      if (attempt >= ATTEMPTS || wait.compareTo(LONGEST_WAIT) > 0) {
        return Future.failedFuture(new ProviderFailure(provider, "rate-limited; try again in " + wait.toSeconds()
            + " s"));
      }
      return attempt(method, url, body, attempt + 1);
    }
    if (response.statusCode() == 404) {
      return Future.succeededFuture(Optional.empty());
    }
    if (response.statusCode() != 200) {
      return Future.failedFuture(new ProviderFailure(provider, "answered " + response.statusCode() + " to " + url));
    }
    try {
      return Future.succeededFuture(Optional.of(response.bodyAsJsonObject()));
    } catch (RuntimeException e) {
      return Future.failedFuture(new ProviderFailure(provider, "answered something that is not a JSON object"));
    }
  }

  /** {@code Retry-After} in seconds (the form both providers use); an HTTP date counts from this clock. */
  private Optional<Duration> retryAfter(HttpResponse<Buffer> response) {
    String value = response.getHeader("Retry-After");
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim()))));
    } catch (NumberFormatException e) {
      try {
        java.time.Instant at = java.time.ZonedDateTime.parse(value.trim(),
            java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration left = Duration.between(clock.instant(), at);
        return Optional.of(left.isNegative() ? Duration.ZERO : left);
      } catch (java.time.format.DateTimeParseException e2) {
        return Optional.empty();
      }
    }
  }
}
