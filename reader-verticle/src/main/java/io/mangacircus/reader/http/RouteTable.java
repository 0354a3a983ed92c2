package io.mangacircus.reader.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every route a router serves, with the full path a request uses, looking into the feature sub-routers mounted on it
 * (Vert.x strips a mount point before a sub-router matches, so a sub-router's own paths are relative to it).
 */
public final class RouteTable {

  /**
   * One route as a request reaches it.
   *
   * @param path the full path (mount points joined with the route's own path, {@code :name} parameters kept); null
   *     for a route without one (every path, or a regular expression)
   * @param methods the methods it answers; empty: every method
   */
  public record Entry(Route route, String path, Set<HttpMethod> methods) {
  }

  private RouteTable() {
  }

  /** The routes of {@code router} and of every sub-router mounted on it, in the router's order. */
  public static List<Entry> of(Router router) {
    List<Entry> entries = new ArrayList<>();
    collect(router, "", entries);
    return entries;
  }

  private static void collect(Router router, String prefix, List<Entry> entries) {
    for (Route route : router.getRoutes()) {
      String path = route.getPath() == null ? null : join(prefix, route.getPath());
      if (route.getSubRouter() != null) {
        if (path == null) {
          throw new IllegalStateException("a sub-router needs a plain mount point: " + route);
        }
        collect(route.getSubRouter(), path, entries);
        continue;
      }
      entries.add(new Entry(route, path, route.methods() == null ? Set.of() : Set.copyOf(route.methods())));
    }
  }

  /** {@code /api/admin/} + {@code /jobs} is {@code /api/admin/jobs}; a sub-router's {@code /} is its mount point. */
  static String join(String prefix, String path) {
    String base = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    if (base.isEmpty()) {
      return path;
    }
    return path.equals("/") ? base : base + path;
  }
}
