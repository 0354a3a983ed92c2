package io.mangacircus.support.net;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Whether two http(s) addresses reach the same server (scheme, host and port, the default port filled in): a secret
 * saved for one address (a notification token or ntfy topic) is reused for an edited address only when this holds.
 */
public final class SameServer {

  private SameServer() {
  }

  /** True when both parse and have the same scheme, host (case-insensitive) and port; false otherwise. */
  public static boolean as(String before, String after) {
    String a = origin(before);
    return a != null && a.equals(origin(after));
  }

  private static String origin(String url) {
    if (url == null) {
      return null;
    }
    try {
      URI uri = new URI(url.strip());
      String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
      String host = uri.getHost();
      if (scheme == null || host == null) {
        return null;
      }
      int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : "http".equals(scheme) ? 80 : -1;
      String name = host.toLowerCase(Locale.ROOT);
      return scheme + "://" + (name.endsWith(".") ? name.substring(0, name.length() - 1) : name) + ":" + port;
    } catch (URISyntaxException e) {
      return null;
    }
  }
}
