package io.mangacircus.scraper.source;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/** Turns HTTP answers and transport errors into {@link FetchOutcome} failures, the same way for every source. */
public final class HttpOutcomes {

  private HttpOutcomes() {
  }

  /** The failure outcome for a non-2xx response; null when the status is a success. */
  public static <T> FetchOutcome<T> ofStatus(HttpResponse<Buffer> response, String what) {
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return null;
    }
    String message = what + " answered " + status;
    if (status == 404 || status == 410) {
      return new FetchOutcome.NotFound<>(what);
    }
    if (status == 429) {
      return new FetchOutcome.RateLimited<>(retryAfter(response), message);
    }
    if (status == 401 || status == 403) {
      return new FetchOutcome.AccessDenied<>(status, message);
    }
    if (status >= 500) {
      boolean hinted = response.getHeader("Retry-After") != null || response.getHeader("X-RateLimit-Retry-After") != null;
      return new FetchOutcome.ServerError<>(status, message, hinted ? retryAfter(response) : null);
    }
    return new FetchOutcome.ParseError<>(message + " (unexpected status)");
  }

  /** The outcome of a request that got no answer. */
  public static <T> FetchOutcome<T> ofTransportError(Throwable error, String what) {
    String kind = error instanceof TimeoutException || String.valueOf(error.getMessage()).toLowerCase(Locale.ROOT)
        .contains("timeout") ? "timed out" : "failed";
    return new FetchOutcome.NetworkError<>(what + " " + kind + ": " + error.getMessage());
  }

  /** {@code Retry-After} (seconds) or {@code X-RateLimit-Retry-After} (epoch seconds); 60 s when absent. */
  public static Duration retryAfter(HttpResponse<Buffer> response) {
    String seconds = response.getHeader("Retry-After");
    if (seconds != null && seconds.trim().matches("\\d{1,6}")) {
      return Duration.ofSeconds(Long.parseLong(seconds.trim()));
    }
    String epoch = response.getHeader("X-RateLimit-Retry-After");
    if (epoch != null && epoch.trim().matches("\\d{1,12}")) {
      long wait = Long.parseLong(epoch.trim()) - System.currentTimeMillis() / 1000;
      return Duration.ofSeconds(Math.max(1, wait));
    }
    return Duration.ofSeconds(60);
  }

  /** The challenge marker an HTML body contains, if any (case-insensitive). */
  public static java.util.Optional<String> challengeMarker(String body, java.util.List<String> markers) {
    if (body == null || markers.isEmpty()) {
      return java.util.Optional.empty();
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
}
