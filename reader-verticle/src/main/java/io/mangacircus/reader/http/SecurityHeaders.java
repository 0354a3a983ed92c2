package io.mangacircus.reader.http;

import io.vertx.core.http.HttpHeaders;
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

  // Pre-encoded once (Netty's AsciiString): written as byte arrays instead of character by character on every answer,
  // which is most of the cost of these ~300 header bytes on a page image.
  private static final CharSequence CSP_NAME = HttpHeaders.createOptimized("Content-Security-Policy");
  private static final CharSequence CSP = HttpHeaders.createOptimized(CONTENT_SECURITY_POLICY);
  private static final CharSequence NOSNIFF_NAME = HttpHeaders.createOptimized("X-Content-Type-Options");
  private static final CharSequence NOSNIFF = HttpHeaders.createOptimized("nosniff");
  private static final CharSequence FRAME_NAME = HttpHeaders.createOptimized("X-Frame-Options");
  private static final CharSequence FRAME = HttpHeaders.createOptimized("DENY");
  private static final CharSequence REFERRER_NAME = HttpHeaders.createOptimized("Referrer-Policy");
  private static final CharSequence REFERRER = HttpHeaders.createOptimized("same-origin");

  private SecurityHeaders() {
  }

  /**
   * Sets the headers on an answer about to be encoded unless it has its policy already: for answers written below the
   * router (the HTTP layer's own 400, 414, 431 and 501), so that every answer carries them.
   */
  public static void applyIfMissing(io.netty.handler.codec.http.HttpHeaders headers) {
    if (!headers.contains(CSP_NAME)) {
      headers.set(CSP_NAME, CSP).set(NOSNIFF_NAME, NOSNIFF).set(FRAME_NAME, FRAME).set(REFERRER_NAME, REFERRER);
    }
  }

  /** Sets the headers on a response before anything is written. */
  public static void apply(HttpServerResponse response) {
    response.putHeader(CSP_NAME, CSP)
        .putHeader(NOSNIFF_NAME, NOSNIFF)
        .putHeader(FRAME_NAME, FRAME)
        .putHeader(REFERRER_NAME, REFERRER);
  }
}
