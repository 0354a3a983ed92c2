package io.mangacircus.reader.trackers;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * How every tracker client reads an HTTP answer: a 2xx is the answer, a {@code 429} a pause (its {@code Retry-After},
 * seconds or an HTTP date), {@code 401} a token to sign in again for, a 5xx or no answer the tracker being down, any
 * other 4xx a refusal of that request. Messages name the tracker and what was asked, never a token.
 */
public final class TrackerAnswers {

  /** The time a request may take before the tracker counts as down for it. */
  public static final long TIMEOUT_MS = 15_000;

  private final String tracker;
  private final InstantSource clock;

  public TrackerAnswers(String tracker, InstantSource clock) {
    this.tracker = tracker;
    this.clock = clock;
  }

  /** The answer when it is a 2xx, else a failure of the kind its status says. */
  public Future<HttpResponse<Buffer>> checked(Future<HttpResponse<Buffer>> sent, String purpose) {
    return sent.recover(e -> Future.failedFuture(new TrackerFailure(tracker, TrackerFailure.Kind.UNAVAILABLE,
        "cannot reach the tracker to " + purpose + ": " + e.getClass().getSimpleName())))
        .compose(response -> {
          int status = response.statusCode();
          if (status >= 200 && status < 300) {
            return Future.succeededFuture(response);
          }
          return Future.failedFuture(failure(status, response, purpose));
        });
  }

  /** The answer's JSON object, or a failure when it is not one. */
  public Future<JsonObject> json(Future<HttpResponse<Buffer>> sent, String purpose) {
    return checked(sent, purpose).compose(response -> {
      try {
        JsonObject body = response.bodyAsJsonObject();
        return body == null ? Future.failedFuture(notUnderstood(purpose)) : Future.succeededFuture(body);
      } catch (RuntimeException e) {
        return Future.failedFuture(notUnderstood(purpose));
      }
    });
  }

  /** A failure for an answer that is not what the tracker documents (taken as the tracker being broken for now). */
  public TrackerFailure notUnderstood(String purpose) {
    return new TrackerFailure(tracker, TrackerFailure.Kind.UNAVAILABLE, "answered something not understood to "
        + purpose);
  }

  /** A failure of the given kind. */
  public TrackerFailure failure(TrackerFailure.Kind kind, String message) {
    return new TrackerFailure(tracker, kind, message);
  }

  private TrackerFailure failure(int status, HttpResponse<Buffer> response, String purpose) {
    if (status == 429) {
      return new TrackerFailure(tracker, TrackerFailure.Kind.RATE_LIMITED, "asked to slow down (429) to " + purpose,
          retryAfter(response.getHeader("Retry-After")));
    }
    if (status == 401) {
      return new TrackerFailure(tracker, TrackerFailure.Kind.SIGN_IN_AGAIN, "refused the sign-in (401) to " + purpose);
    }
    if (status >= 500 || status == 408) {
      return new TrackerFailure(tracker, TrackerFailure.Kind.UNAVAILABLE, "answered " + status + " to " + purpose);
    }
    return new TrackerFailure(tracker, TrackerFailure.Kind.REFUSED, "answered " + status + " to " + purpose);
  }

  /** A {@code Retry-After} value as a pause from now: seconds, or an HTTP date; null when absent or unreadable. */
  Duration retryAfter(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim())));
    } catch (NumberFormatException e) {
      try {
        Instant at = ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration left = Duration.between(clock.instant(), at);
        return left.isNegative() ? Duration.ZERO : left;
      } catch (DateTimeParseException e2) {
        return null;
      }
    }
  }
}
