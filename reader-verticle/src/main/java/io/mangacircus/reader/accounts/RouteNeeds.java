package io.mangacircus.reader.accounts;

import static io.mangacircus.reader.accounts.AccessGuard.ADMIN_ONLY;
import static io.mangacircus.reader.accounts.AccessGuard.APP_PROGRESS;
import static io.mangacircus.reader.accounts.AccessGuard.APP_READABLE;
import static io.mangacircus.reader.accounts.AccessGuard.PUBLIC;

import io.mangacircus.reader.http.RouteTable;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * What the declared routes a request reaches need (an admin, nothing, a reading route open to app passwords, or a route
 * that moves the user's reading position, open to app passwords of that scope), as
 * {@link AccessGuard} learned them from the router once every route was declared; the guard runs before any feature's
 * routes and asks here.
 */
final class RouteNeeds {

  /** Every route under this path must be declared {@link AccessGuard#adminOnly}, or {@link #learn} refuses. */
  static final String ADMIN_AREA = "/api/admin/";

  /** Bits of what the routes a request reaches need, from the plain paths and the markers together. */
  static final int NEEDS_ADMIN = 1;
  static final int NEEDS_NOTHING = 2;
  static final int OPEN_TO_APPS = 4;
  static final int OPEN_TO_PROGRESS = 8;

  /** The methods a route declared {@link AccessGuard#appProgress} may answer: it changes a reading position. */
  private static final Set<HttpMethod> PROGRESS_METHODS = Set.of(HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

  private final Vertx vertx;

  RouteNeeds(Vertx vertx) {
    this.vertx = vertx;
  }

  /** See {@link AccessGuard#learnRoutes}. */
  void learn(Router router) {
    int order = -100_000;
    java.util.Map<String, Router> groups = new java.util.HashMap<>();
    java.util.Map<String, java.util.List<PlainRoute>> plainGroups = new java.util.LinkedHashMap<>();
    for (RouteTable.Entry entry : RouteTable.of(router)) {
      boolean admin = Boolean.TRUE.equals(entry.route().getMetadata(ADMIN_ONLY));
      boolean open = Boolean.TRUE.equals(entry.route().getMetadata(PUBLIC));
      boolean app = Boolean.TRUE.equals(entry.route().getMetadata(APP_READABLE));
      boolean progress = Boolean.TRUE.equals(entry.route().getMetadata(APP_PROGRESS));
      String path = entry.path();
      if (progress && (admin || open || app || entry.methods().isEmpty()
          || !PROGRESS_METHODS.containsAll(entry.methods()))) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is declared app-progress but is "
            + "not a plain PUT, PATCH or DELETE route that needs a session");
      }
      if (app && (admin || open || entry.methods().isEmpty() || !Set.of(HttpMethod.GET).containsAll(entry.methods()))) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is declared app-readable but is "
            + "not a plain GET route that needs a session");
      }
      if (!admin && path != null && path.startsWith(ADMIN_AREA)) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is under " + ADMIN_AREA
            + " but not declared AccessGuard.adminOnly");
      }
      if (!admin && !open && !app && !progress) {
        continue;
      }
      if (admin && open) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is declared both admin-only and "
            + "public");
      }
      if (path == null) {
        throw new IllegalStateException("a route declared admin-only or public needs a plain path: " + entry.route());
      }
      // A marker or plain path has the route's path without its wildcard, so it would miss what the wildcard matches.
      if (!entry.route().isExactPath()) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + "* is declared admin-only, public "
            + "app-readable or app-progress but matches by prefix: declare each route it answers with its own path");
      }
      String flag = admin ? ADMIN_ONLY : open ? PUBLIC : app ? APP_READABLE : APP_PROGRESS;
      int needs = admin ? NEEDS_ADMIN : open ? NEEDS_NOTHING : app ? OPEN_TO_APPS : OPEN_TO_PROGRESS;
      String prefix = markerPrefix(path);
      PlainRoutePath plain = PlainRoutePath.parse(path);
      if (plain != null) {
        plainGroups.computeIfAbsent(prefix == null ? "" : prefix, p -> new java.util.ArrayList<>())
            .add(new PlainRoute(plain, entry.methods(), needs));
        continue;
      }
      markers = true;
      Router target = router;
      String relative = path;
      if (prefix != null) {
        Router group = groups.get(prefix);
        if (group == null) {
          group = Router.router(vertx);
          groups.put(prefix, group);
          router.route(prefix + "*").order(order++).subRouter(group);
        }
        target = group;
        relative = path.substring(prefix.length());
      }
      for (HttpMethod method : entry.methods().isEmpty() ? java.util.Collections.<HttpMethod>singleton(null)
          : entry.methods()) {
        Route marker = method == null ? target.route(relative) : target.route(method, relative);
        marker.order(order++).handler(ctx -> {
          ctx.put(flag, true);
          ctx.next();
        });
      }
    }
    java.util.List<PlainGroup> learned = new java.util.ArrayList<>();
    plainGroups.forEach((prefix, routes) -> learned.add(new PlainGroup(prefix, routes.toArray(PlainRoute[]::new))));
    plainRoutes = learned.toArray(PlainGroup[]::new);
  }

  /** A learned route with a plain path: the methods it answers (empty: every method) and what it needs. */
  private record PlainRoute(PlainRoutePath path, Set<HttpMethod> methods, int needs) {
  }

  /** The plain routes under one leading pair of literal segments ({@code ""}: those without one). */
  private record PlainGroup(String prefix, PlainRoute[] routes) {

    /** Whether a normalized path is under this group's prefix (the prefix, a slash, then more). */
    boolean holds(String path) {
      int length = prefix.length();
      return length == 0 || path.length() > length && path.charAt(length) == '/' && path.startsWith(prefix);
    }
  }

  private volatile PlainGroup[] plainRoutes = new PlainGroup[0];
  private volatile boolean markers;

  /**
   * What the declared routes that {@code ctx}'s request reaches need ({@link #NEEDS_ADMIN} ...): every matching route
   * counts, as every matching marker flags the request.
   */
  int needs(RoutingContext ctx) {
    int needs = 0;
    String path = ctx.normalizedPath();
    HttpMethod method = ctx.request().method();
    for (PlainGroup group : plainRoutes) {
      if (!group.holds(path)) {
        continue;
      }
      for (PlainRoute route : group.routes()) {
        if ((route.methods().isEmpty() || route.methods().contains(method)) && route.path().matches(path)) {
          needs |= route.needs();
        }
      }
    }
    if (markers) {
      needs |= (Boolean.TRUE.equals(ctx.get(ADMIN_ONLY)) ? NEEDS_ADMIN : 0)
          | (Boolean.TRUE.equals(ctx.get(PUBLIC)) ? NEEDS_NOTHING : 0)
          | (Boolean.TRUE.equals(ctx.get(APP_READABLE)) ? OPEN_TO_APPS : 0)
          | (Boolean.TRUE.equals(ctx.get(APP_PROGRESS)) ? OPEN_TO_PROGRESS : 0);
    }
    return needs;
  }

  /**
   * The leading two literal segments of a marker's path when more follows them ({@code /api/admin} of
   * {@code /api/admin/users/:username}), under which it is grouped; null when it has no such prefix (it stays on the
   * router itself).
   */
  static String markerPrefix(String path) {
    if (!path.startsWith("/")) {
      return null;
    }
    int first = path.indexOf('/', 1);
    int second = first < 0 ? -1 : path.indexOf('/', first + 1);
    if (second < 0) {
      return null;
    }
    String prefix = path.substring(0, second);
    return prefix.indexOf(':') >= 0 || prefix.indexOf('*') >= 0 || prefix.indexOf('(') >= 0 ? null : prefix;
  }
}
