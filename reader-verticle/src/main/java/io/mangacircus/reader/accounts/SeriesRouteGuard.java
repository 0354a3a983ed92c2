package io.mangacircus.reader.accounts;

import io.mangacircus.reader.access.SeriesAccess;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.RouteTable;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Refuses, below every route, a request that names a series its account may not see ({@link VisibleSeries}): it
 * answers 404, as for a series that does not exist, so a hidden series cannot be told from a missing one. It learns
 * from the router every route whose path names a series through a parameter it knows ({@code :series} anywhere; the
 * Komga API's {@code :book}, whose id names its series), so that a route added later is covered without being listed
 * here; a route that names one in a path it cannot match exactly stops the start. Runs after {@link AccessGuard},
 * which found the session.
 */
public final class SeriesRouteGuard implements Handler<RoutingContext> {

  /** A learned route: its path, the methods it answers (empty: all) and the parameter that names the series. */
  private record Learned(PlainRoutePath path, Set<HttpMethod> methods, String parameter) {
  }

  private final VisibleSeries visible;
  private final Map<String, Function<String, String>> parameters;
  private volatile List<Learned> routes = List.of();

  /**
   * @param parameters by parameter name, how its (decoded) value names a series id (null: it names none, and the
   *     route answers that itself); {@code series} is the id itself
   */
  public SeriesRouteGuard(VisibleSeries visible, Map<String, Function<String, String>> parameters) {
    this.visible = visible;
    this.parameters = Map.copyOf(parameters);
  }

  /** Learns the routes of {@code router} (its sub-routers included) that name a series. Call once every route is declared. */
  public void learn(Router router) {
    List<Learned> learned = new ArrayList<>();
    for (RouteTable.Entry entry : RouteTable.of(router)) {
      String path = entry.path();
      if (path == null) {
        continue;
      }
      for (String name : parameters.keySet()) {
        if (!path.contains(":" + name)) {
          continue;
        }
        PlainRoutePath plain = PlainRoutePath.parse(path);
        if (plain == null || !plain.has(name)) {
          throw new IllegalStateException("route " + path + " names a series by :" + name + " in a path the series "
              + "guard cannot match exactly; give it a plain path");
        }
        learned.add(new Learned(plain, entry.methods(), name));
      }
    }
    routes = List.copyOf(learned);
  }

  /** How many routes the guard learned (for the leak walk test and the start log). */
  public int learnedRoutes() {
    return routes.size();
  }

  @Override
  public void handle(RoutingContext ctx) {
    SeriesAccess access = visible.of(ctx);
    ctx.put(VisibleSeries.VIEWER, new VisibleSeries.Viewer(visible, access));
    if (access.seesEverything()) {
      ctx.next();
      return;
    }
    String path = ctx.normalizedPath();
    HttpMethod method = ctx.request().method();
    for (Learned route : routes) {
      if ((!route.methods().isEmpty() && !route.methods().contains(method)) || !route.path().matches(path)) {
        continue;
      }
      String raw = route.path().parameter(path, route.parameter());
      String value;
      try {
        value = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        continue;   // not a value the route can decode either: it answers that itself
      }
      String seriesId = parameters.get(route.parameter()).apply(value);
      if (seriesId != null && !visible.sees(access, seriesId)) {
        // Nothing of the series is said, not even the id the request named.
        ApiReplies.error(ctx, 404, "not_found", "no such series");
        return;
      }
    }
    ctx.next();
  }
}
