package io.mangacircus.scraper.source;

import java.time.Duration;
import java.time.Instant;

/**
 * What a source call came back with: a value or one of the ways the outside world says no. Expected failures are
 * values, never exceptions.
 */
public sealed interface FetchOutcome<T> {

  /** The call worked. */
  record Ok<T>(T value) implements FetchOutcome<T> {
  }

  /** The source positively says the thing does not exist (404, 410, or absent from a listing). */
  record NotFound<T>(String what) implements FetchOutcome<T> {
  }

  /** 429 (or a rate-limit header): come back after {@code retryAfter}. */
  record RateLimited<T>(Duration retryAfter, String message) implements FetchOutcome<T> {
  }

  /** A 5xx answer; {@code retryAfter} when the server sent {@code Retry-After}, else null. */
  record ServerError<T>(int status, String message, Duration retryAfter) implements FetchOutcome<T> {
    public ServerError(int status, String message) {
      this(status, message, null);
    }
  }

  /** No HTTP answer at all: refused, reset, timed out. */
  record NetworkError<T>(String message) implements FetchOutcome<T> {
  }

  /** 401/403, or a challenge page served instead of content. Never bypassed. */
  record AccessDenied<T>(int status, String message) implements FetchOutcome<T> {
  }

  /** The answer arrived but is not what the adapter understands (markup changed, not an image). */
  record ParseError<T>(String message) implements FetchOutcome<T> {
  }

  /**
   * Nothing was sent: a hold is in force until {@code until} — a wait the site named (a 429, or a spent budget
   * announced by its headers) or our own budget under its published limits. Not a failure: the caller waits and asks
   * again (docs/resilience.md, "Limits").
   *
   * @param reason for the lane's status, e.g. {@code waiting for MangaDex's at-home limit}
   */
  record Held<T>(Instant until, String reason) implements FetchOutcome<T> {
  }

  /**
   * Nothing was sent: the source's circuit is open until {@code until} (when it lets a trial call through). Not a
   * failure of the job that asked: it waits for the circuit without losing an attempt.
   */
  record CircuitOpen<T>(Instant until, String message) implements FetchOutcome<T> {
  }

  /** Whether this is {@link Ok}. */
  default boolean ok() {
    return this instanceof Ok;
  }

  /** The value of an {@link Ok}; an IllegalStateException otherwise. */
  default T value() {
    if (this instanceof Ok<T> ok) {
      return ok.value();
    }
    throw new IllegalStateException("not ok: " + this);
  }

  /** The same failure retyped, for passing it up a chain; an IllegalStateException for {@link Ok}. */
  @SuppressWarnings("unchecked")
  default <U> FetchOutcome<U> failure() {
    if (this instanceof Ok) {
      throw new IllegalStateException("an Ok outcome is not a failure");
    }
    return (FetchOutcome<U>) this;
  }

  /** One line for logs and job reasons. */
  default String describe() {
    if (this instanceof NotFound<T> n) {
      return "not found: " + n.what();
    } else if (this instanceof RateLimited<T> r) {
      return "rate limited (retry after " + r.retryAfter().toSeconds() + " s): " + r.message();
    } else if (this instanceof ServerError<T> s) {
      return "server error " + s.status() + ": " + s.message();
    } else if (this instanceof NetworkError<T> n) {
      return "network error: " + n.message();
    } else if (this instanceof AccessDenied<T> a) {
      return "access denied (" + a.status() + "): " + a.message();
    } else if (this instanceof ParseError<T> p) {
      return "parse error: " + p.message();
    } else if (this instanceof Held<T> h) {
      return h.reason() + " until " + h.until() + " (nothing sent)";
    } else if (this instanceof CircuitOpen<T> c) {
      return "circuit open until " + c.until() + ": " + c.message();
    }
    return "ok";
  }
}
