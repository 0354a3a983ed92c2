package io.mangacircus.reader.accounts;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.RouteTable;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.InstantSource;
import java.util.Set;

/**
 * Guards {@code /api/*} before any feature's routes: every route needs a live session (cookie {@code mc_session}) but
 * those declared {@link #publicRoute} (login, reading the system info); admin routes also accept
 * {@code Authorization: Bearer <admin token>}; session requests that change state must carry {@code X-CSRF-Token};
 * admin routes need the admin role. 401 without credentials, 403 for the rest. What a route needs is declared where
 * the route is declared ({@link #adminOnly}, {@link #publicRoute}), in whichever feature sub-router, never read from
 * its path.
 */
public final class AccessGuard implements Handler<RoutingContext> {

  /** Where the current session is kept on the routing context. */
  public static final String SESSION = "mc.session";

  /** Route metadata (and routing-context key) that marks an admin-only route; see {@link #adminOnly}. */
  public static final String ADMIN_ONLY = "mc.adminOnly";

  /** Route metadata (and routing-context key) that marks a route open without a session; see {@link #publicRoute}. */
  public static final String PUBLIC = "mc.public";

  /** Every route under this path must be declared {@link #adminOnly}, or {@link #learnRoutes} refuses. */
  static final String ADMIN_AREA = "/api/admin/";

  private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

  private final Vertx vertx;
  private final ReaderDatabase database;
  private final byte[] adminToken;
  private final InstantSource clock;
  private final java.util.concurrent.ConcurrentHashMap<String, Remembered> remembered =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How long a looked-up session is trusted without asking the database again (logout and user changes forget). */
  static final java.time.Duration REMEMBER = java.time.Duration.ofSeconds(5);

  private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();

  private record Remembered(ReaderDatabase.Session session, java.time.Instant until) {
  }

  public AccessGuard(Vertx vertx, ReaderDatabase database, String adminToken, InstantSource clock) {
    this.vertx = vertx;
    this.database = database;
    this.adminToken = adminToken.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
  }

  /**
   * Declares {@code route} admin-only (an admin session, or the admin bearer token); call it where the route is
   * declared, before its handlers: {@code AccessGuard.adminOnly(users.get("/")).handler(...)}.
   */
  public static Route adminOnly(Route route) {
    return route.putMetadata(ADMIN_ONLY, true);
  }

  /**
   * Declares {@code route} open to everyone, without a session or CSRF header: only logging in, and reading which
   * service answers ({@code GET /api/system/info}, the same facts as the anonymous {@code /health/ready}).
   */
  public static Route publicRoute(Route route) {
    return route.putMetadata(PUBLIC, true);
  }

  /**
   * Teaches the guard the routes of {@code router}, its feature sub-routers included, that are declared
   * {@link #adminOnly} or {@link #publicRoute}: for each, a marker route on {@code router} with the same method and
   * full path, ordered before every other route, flags a request it matches, so that the guard (which runs before any
   * feature's routes) knows what the route about to answer needs. Vert.x matches the marker exactly as it matches the
   * route. Call it once, after every route is declared.
   *
   * @throws IllegalStateException when a route under {@code /api/admin/} is not declared admin-only, so that a
   *     forgotten declaration stops the start instead of opening an admin route to every account
   */
  public void learnRoutes(Router router) {
    int order = -100_000;
    for (RouteTable.Entry entry : RouteTable.of(router)) {
      boolean admin = Boolean.TRUE.equals(entry.route().getMetadata(ADMIN_ONLY));
      boolean open = Boolean.TRUE.equals(entry.route().getMetadata(PUBLIC));
      String path = entry.path();
      if (!admin && path != null && path.startsWith(ADMIN_AREA)) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is under " + ADMIN_AREA
            + " but not declared AccessGuard.adminOnly");
      }
      if (!admin && !open) {
        continue;
      }
      if (admin && open) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is declared both admin-only and "
            + "public");
      }
      if (path == null) {
        throw new IllegalStateException("a route declared admin-only or public needs a plain path: " + entry.route());
      }
      String flag = admin ? ADMIN_ONLY : PUBLIC;
      for (HttpMethod method : entry.methods().isEmpty() ? java.util.Collections.<HttpMethod>singleton(null)
          : entry.methods()) {
        Route marker = method == null ? router.route(path) : router.route(method, path);
        marker.order(order++).handler(ctx -> {
          ctx.put(flag, true);
          ctx.next();
        });
      }
    }
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (Boolean.TRUE.equals(ctx.get(PUBLIC))) {
      ctx.next();
      return;
    }
    boolean admin = Boolean.TRUE.equals(ctx.get(ADMIN_ONLY));
    if (admin && bearerMatches(ctx)) {
      ctx.next();
      return;
    }
    Cookie cookie = ctx.request().getCookie(Sessions.COOKIE);
    if (cookie == null || cookie.getValue().isEmpty()) {
      deny(ctx, 401, "unauthorized", "log in first (POST /api/login)");
      return;
    }
    lookup(cookie.getValue()).onComplete(ar -> {
      if (ar.failed()) {
        deny(ctx, 500, "internal_error", "sessions cannot be read: " + ar.cause().getMessage());
        return;
      }
      if (ar.result().isEmpty()) {
        deny(ctx, 401, "unauthorized", "the session has ended; log in again");
        return;
      }
      ReaderDatabase.Session session = ar.result().get();
      if (!SAFE.contains(ctx.request().method())
          && !Sessions.same(session.csrfToken(), ctx.request().getHeader(Sessions.CSRF_HEADER))) {
        deny(ctx, 403, "csrf", "missing or wrong " + Sessions.CSRF_HEADER + " header");
        return;
      }
      if (admin && !"admin".equals(session.role())) {
        deny(ctx, 403, "forbidden", "admin pages need an admin account");
        return;
      }
      ctx.put(SESSION, session);
      ctx.next();
    });
  }

  /**
   * The live session of a session token. A session read from the database is trusted for {@link #REMEMBER} so that
   * page images do not each cost a database read; {@link #forget} and {@link #forgetAll} end that at once.
   */
  public io.vertx.core.Future<java.util.Optional<ReaderDatabase.Session>> lookup(String token) {
    String tokenHash = Sessions.hash(token);
    java.time.Instant now = clock.instant();
    Remembered known = remembered.get(tokenHash);
    if (known != null && now.isBefore(known.until()) && now.isBefore(known.session().expiresAt())) {
      return io.vertx.core.Future.succeededFuture(java.util.Optional.of(known.session()));
    }
    long asked = generation.get();
    return vertx.executeBlocking(() -> database.session(tokenHash, now), false).onSuccess(found -> {
      // A read that overlapped a logout or an account change may be stale: use it once, do not remember it.
      if (found.isPresent() && generation.get() == asked) {
        if (remembered.size() > 10_000) {
          remembered.clear();
        }
        remembered.put(tokenHash, new Remembered(found.get(), now.plus(REMEMBER)));
      } else {
        remembered.remove(tokenHash);
      }
    });
  }

  /** A session ended (logout): it is no longer trusted from memory. */
  public void forget(String tokenHash) {
    generation.incrementAndGet();
    remembered.remove(tokenHash);
  }

  /** Accounts changed (password, disabled): every session is read from the database again. */
  public void forgetAll() {
    generation.incrementAndGet();
    remembered.clear();
  }

  private boolean bearerMatches(RoutingContext ctx) {
    if (adminToken.length == 0) {
      return false;
    }
    String header = ctx.request().getHeader("Authorization");
    byte[] offered = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
        ? header.substring(7).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
    return MessageDigest.isEqual(adminToken, offered);
  }

  private static void deny(RoutingContext ctx, int status, String error, String message) {
    if (status == 401) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"mangacircus\"");
    }
    ApiReplies.error(ctx, status, error, message);
  }
}
