package io.mangacircus.scraper.source.suwayomi;

import io.mangacircus.scraper.source.FetchOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an error in a Suwayomi GraphQL answer (HTTP 200 with {@code errors}) means for MangaCircus: the site behind the
 * Suwayomi source refused (a Cloudflare challenge, HTTP 401/403), failed (5xx), limited us (429), the source is no
 * longer installed on the server, the server refused our credentials, or the extension failed otherwise. Decides only.
 *
 * <p>Suwayomi ({@code TachideskGraphQLServer.kt}) appends {@code "\r\n\r\n"} and the whole stack trace to every
 * message; only the text before it is ever kept, and graphql-java's {@code "Exception while fetching data (path) : "}
 * prefix is dropped.
 */
public final class SuwayomiErrors {

  /** How long the adapter sends nothing after the server said its source is gone (an extension reinstalled is seen then). */
  public static final Duration NOT_INSTALLED_RECHECK = Duration.ofMinutes(10);

  /** The wait assumed when the site behind a source answered 429 (Suwayomi does not pass its Retry-After on). */
  public static final Duration SITE_RATE_LIMIT_WAIT = Duration.ofSeconds(60);

  private static final Pattern HTTP_ERROR = Pattern.compile("HTTP error (\\d{3})");
  private static final Pattern FETCH_PREFIX = Pattern.compile("^Exception while fetching data \\([^)]*\\) : ");

  private SuwayomiErrors() {
  }

  /** The line an operator may read: the message before the stack trace, without graphql-java's prefix. */
  public static String firstPart(String message) {
    if (message == null) {
      return "";
    }
    int cut = message.indexOf("\r\n\r\n");
    String head = cut < 0 ? message : message.substring(0, cut);
    head = FETCH_PREFIX.matcher(head.strip()).replaceFirst("");
    return head.length() > 300 ? head.substring(0, 300) + "…" : head;
  }

  /** The wait reason of a source the server does not list (the lane's status and the job's reason say it). */
  public static String notInstalled(String sourceId) {
    return "source " + sourceId + " is not installed on the Suwayomi server";
  }

  /**
   * The outcome of a GraphQL error.
   *
   * @param message the error's {@code message} as the server sent it (stack trace included)
   * @param what what was asked, e.g. {@code search for 'one piece'}
   * @param sourceId the configured Suwayomi source id; null for a call about the whole server (its source list)
   * @param now the adapter's clock, for waits
   */
  public static <T> FetchOutcome<T> outcome(String message, String what, String sourceId, Instant now) {
    String text = firstPart(message);
    String lower = text.toLowerCase(Locale.ROOT);
    // An unknown source id fails at getSourceOrNull(sourceId)!!: a NullPointerException whose message is "null".
    // A call about the whole server (sourceId null) names no source that could be missing.
    if (sourceId != null && (text.equals("null") || text.isEmpty())) {
      return new FetchOutcome.Held<>(now.plus(NOT_INSTALLED_RECHECK), notInstalled(sourceId));
    }
    if (lower.contains("cloudflare")) {
      return new FetchOutcome.AccessDenied<>(403, what + ": the site of Suwayomi source " + sourceId
          + " answered a Cloudflare challenge (" + text + ")");
    }
    if (lower.contains("unauthorized")) {
      return new FetchOutcome.AccessDenied<>(401, what + ": the Suwayomi server refused our credentials (" + text
          + ")");
    }
    Matcher http = HTTP_ERROR.matcher(text);
    if (http.find()) {
      int status = Integer.parseInt(http.group(1));
      String said = what + ": the site of Suwayomi source " + sourceId + " answered " + status;
      if (status == 429) {
        return new FetchOutcome.RateLimited<>(SITE_RATE_LIMIT_WAIT, said);
      }
      if (status == 401 || status == 403) {
        return new FetchOutcome.AccessDenied<>(status, said);
      }
      if (status == 404 || status == 410) {
        return new FetchOutcome.NotFound<>(said);
      }
      if (status >= 500) {
        return new FetchOutcome.ServerError<>(status, said);
      }
    }
    return new FetchOutcome.ParseError<>(what + ": " + (sourceId == null ? "the Suwayomi server"
        : "Suwayomi source " + sourceId) + " failed: " + text);
  }
}
