package io.mangacircus.reader.http;

import io.vertx.core.http.HttpServerResponse;

/**
 * The headers every answer on the reader's port carries (pages, API, errors, health): a Content-Security-Policy that
 * lets pages load only this site's own scripts, styles, images and connections (no inline script, style attribute,
 * {@code eval} or plug-in) and never be framed; no MIME sniffing; referrers only to this site.
 */
public final class SecurityHeaders {

  /** {@code 'self'} also covers the console's WebSocket to the same host and port. */
  public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
      + "img-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
      + "frame-ancestors 'none'";

  private SecurityHeaders() {
  }

  /** Sets the headers on a response before anything is written. */
  public static void apply(HttpServerResponse response) {
    response.putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Referrer-Policy", "same-origin");
  }
}
