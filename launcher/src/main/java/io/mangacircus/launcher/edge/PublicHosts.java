package io.mangacircus.launcher.edge;

import java.util.List;
import java.util.Locale;

/**
 * The names this server answers to ({@code http.publicHosts}), checked against a request's {@code Host} header so that a
 * page of another site whose name was pointed at this server (DNS rebinding) is not answered as this site. No names:
 * every {@code Host} is answered. A name without a port admits it on any port; {@code name:port} on that port only.
 */
public final class PublicHosts {

  private final List<String> names;

  public PublicHosts(List<String> names) {
    this.names = names.stream().map(name -> name.trim().toLowerCase(Locale.ROOT)).toList();
  }

  /** Whether the check is on at all. */
  public boolean checked() {
    return !names.isEmpty();
  }

  /** Whether a request with this {@code Host} header (null: none) is answered. */
  public boolean admits(String host) {
    if (names.isEmpty()) {
      return true;
    }
    if (host == null || host.isBlank()) {
      return false;
    }
    String given = host.trim().toLowerCase(Locale.ROOT);
    int colon = given.startsWith("[") ? given.indexOf("]:") + 1 : given.lastIndexOf(':');
    String name = colon > 0 ? given.substring(0, colon) : given;
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    for (String allowed : names) {
      if (allowed.equals(given) || allowed.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Why a configured name is not a valid entry, or null when it is. */
  public static String problem(String name) {
    if (name == null || name.isBlank()) {
      return "an entry is empty";
    }
    if (!name.trim().matches("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+)(:\\d{1,5})?")) {
      return "\"" + name + "\" is not a host name or host:port (no scheme, path or spaces)";
    }
    return null;
  }
}
