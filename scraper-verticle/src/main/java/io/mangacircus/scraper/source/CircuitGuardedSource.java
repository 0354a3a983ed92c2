package io.mangacircus.scraper.source;

import io.mangacircus.scraper.pacing.Delays;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.failure.RetryPolicy;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.circuitbreaker.CircuitBreakerState;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Puts every call of a source behind that source's circuit breaker: network errors and 5xx answers are retried a
 * bounded number of times (honouring {@code Retry-After}), count towards opening the circuit, and while it is open
 * calls are not sent: they come back at once as {@link FetchOutcome.CircuitOpen} with the time the circuit lets a
 * trial call through, so the job that asked can wait for it without losing an attempt (docs/resilience.md). Other
 * outcomes pass through untouched.
 */
public final class CircuitGuardedSource implements Source {

  /** A transient outcome carried through the breaker as a failure so it is retried and counted. */
  private static final class TransientFailure extends RuntimeException {
    private final transient FetchOutcome<?> outcome;

    TransientFailure(FetchOutcome<?> outcome) {
      super(outcome.describe(), null, false, false);
      this.outcome = outcome;
    }
  }


  /** When each breaker made by {@link #breaker} last opened (wall-clock, as the breaker's own reset timer). */
  private static final Map<CircuitBreaker, Instant> OPENED = Collections.synchronizedMap(new WeakHashMap<>());

  private final Source source;
  private final CircuitBreaker breaker;
  private final Vertx vertx;
  private final ScraperConfig.Failures settings;
  private final RetryPolicy retry;

  public CircuitGuardedSource(Source source, CircuitBreaker breaker, Vertx vertx, ScraperConfig.Failures settings) {
    this.source = source;
    this.breaker = breaker;
    this.vertx = vertx;
    this.settings = settings;
    this.retry = RetryPolicy.of(settings);
  }

  /** The breaker for one source; {@code onChange} hears every state change. */
  public static CircuitBreaker breaker(Vertx vertx, String source, ScraperConfig.Failures settings,
      Consumer<CircuitBreakerState> onChange) {
    // Every request (first try and each retry) counts, within a window as long as the circuit stays open.
    CircuitBreakerOptions options = new CircuitBreakerOptions()
        .setMaxFailures(settings.circuitMaxFailures())
        .setMaxRetries(0)
        .setTimeout(-1)
        .setResetTimeout(settings.circuitOpenSeconds() * 1000)
        .setFailuresRollingWindow(Math.max(60_000, settings.circuitOpenSeconds() * 1000))
        .setNotificationAddress(null);
    CircuitBreaker breaker = CircuitBreaker.create("mc.source." + source, vertx, options);
    breaker.openHandler(v -> {
      OPENED.put(breaker, Instant.now());
      onChange.accept(CircuitBreakerState.OPEN);
    });
    breaker.halfOpenHandler(v -> onChange.accept(CircuitBreakerState.HALF_OPEN));
    breaker.closeHandler(v -> onChange.accept(CircuitBreakerState.CLOSED));
    return breaker;
  }

  @Override
  public String name() {
    return source.name();
  }

  @Override
  public String titleIdOf(String titleRef) {
    return source.titleIdOf(titleRef);
  }

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
    return guarded(() -> source.title(titleRef));
  }

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing) {
    return guarded(() -> source.title(titleRef, spacing));
  }

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing, Wanted wanted) {
    return guarded(() -> source.title(titleRef, spacing, wanted));
  }

  @Override
  public boolean canSearch() {
    return source.canSearch();
  }

  @Override
  public Future<FetchOutcome<List<TitleHit>>> search(String query, int limit) {
    return guarded(() -> source.search(query, limit));
  }

  @Override
  public Future<FetchOutcome<TitlePreview>> preview(String titleId) {
    return guarded(() -> source.preview(titleId));
  }

  @Override
  public Future<FetchOutcome<PageBytes>> cover(String url) {
    return guarded(() -> source.cover(url));
  }

  @Override
  public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    return guarded(() -> source.pages(titleId, chapter));
  }

  @Override
  public Future<FetchOutcome<PageBytes>> page(PageRef page) {
    return guarded(() -> source.page(page));
  }

  /** The circuit's state now. */
  public CircuitBreakerState state() {
    return breaker.state();
  }

  /**
   * When the open circuit lets a trial call through: its opening plus {@code circuitOpenSeconds}; a second from now
   * when that is unknown or past (half-open, with the one trial call under way).
   */
  public Instant openUntil() {
    Instant now = Instant.now();
    Instant opened = OPENED.get(breaker);
    Instant until = opened == null ? null : opened.plus(Duration.ofSeconds(settings.circuitOpenSeconds()));
    return until == null || !until.isAfter(now) ? now.plusSeconds(1) : until;
  }

  @Override
  public java.util.Optional<SourceHold> hold() {
    return source.hold();
  }

  @Override
  public void holdUntil(Instant until, String reason) {
    source.holdUntil(until, reason);
  }

  @Override
  public SourceLimits limits() {
    return source.limits();
  }

  /** A call with bounded request-level retries for transient failures, each try going through the breaker. */
  private <T> Future<FetchOutcome<T>> guarded(Supplier<Future<FetchOutcome<T>>> call) {
    return attempt(call, 0);
  }

  private <T> Future<FetchOutcome<T>> attempt(Supplier<Future<FetchOutcome<T>>> call, int retry) {
    return once(call).compose(outcome -> {
      if (!transientFailure(outcome) || retry >= this.retry.requestRetries()
          || breaker.state() == CircuitBreakerState.OPEN) {
        return Future.succeededFuture(outcome);
      }
      return Delays.after(vertx, Math.max(1, retryDelay(outcome, retry))).compose(v -> attempt(call, retry + 1));
    });
  }

  /** {@code Retry-After} when the server sent one, else exponential from {@code retryBackoffMs}; at most 30 s. */
  private long retryDelay(FetchOutcome<?> outcome, int retry) {
    return this.retry.requestDelay(retry, outcome instanceof FetchOutcome.ServerError<?> s ? s.retryAfter() : null)
        .toMillis();
  }

  @SuppressWarnings("unchecked")
  private <T> Future<FetchOutcome<T>> once(Supplier<Future<FetchOutcome<T>>> call) {
    return breaker.<FetchOutcome<T>>execute(() -> call.get().compose(outcome -> transientFailure(outcome)
            ? Future.failedFuture(new TransientFailure(outcome)) : Future.succeededFuture(outcome)))
        .recover(error -> {
          if (error instanceof TransientFailure t) {
            return Future.succeededFuture((FetchOutcome<T>) t.outcome);
          }
          if (error instanceof OpenCircuitException) {
            Instant until = openUntil();
            return Future.succeededFuture(new FetchOutcome.CircuitOpen<>(until, "circuit of source " + source.name()
                + " is open after repeated failures until " + until + "; no request was sent"));
          }
          // Anything else is a bug in the adapter, not the network: let the lane's crash handling see it.
          return Future.failedFuture(error);
        });
  }

  private static boolean transientFailure(FetchOutcome<?> outcome) {
    return outcome instanceof FetchOutcome.NetworkError<?> || outcome instanceof FetchOutcome.ServerError<?>;
  }

  /** For metrics: 0 closed, 1 half-open, 2 open. */
  public static int gaugeValue(CircuitBreakerState state) {
    return switch (state) {
      case CLOSED -> 0;
      case HALF_OPEN -> 1;
      case OPEN -> 2;
    };
  }
}
