package io.mangacircus.reader.http;

import java.net.URI;

/** Whether a request's {@code Origin} header names this site: the same host and port the request was sent to. */
public final class SameOrigin {

  private SameOrigin() {
  }

  /**
   * True when {@code origin} is {@code http(s)://<host>} for the request's {@code Host} header (case-insensitive);
   * false for another host or port, {@code null} (an opaque origin), another scheme, or no {@code Host}.
   */
  public static boolean matches(String origin, String host) {
    if (host == null || origin == null) {
      return false;
    }
    try {
      URI uri = URI.create(origin);
      String authority = uri.getRawAuthority();
      return authority != null && authority.equalsIgnoreCase(host)
          && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** True when the request carries an {@code Origin} header that is not this site (no header is not cross-site). */
  public static boolean crossSite(io.vertx.core.http.HttpServerRequest request) {
    String origin = request.getHeader("Origin");
    return origin != null && !matches(origin, request.getHeader("Host"));
  }
}
