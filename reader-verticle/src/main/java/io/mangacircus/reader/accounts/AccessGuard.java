package io.mangacircus.reader.accounts;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.RouteTable;
import io.mangacircus.reader.store.AppPasswordStore;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.SessionStore;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.InstantSource;
import java.util.Set;

/**
 * Guards {@code /api/*} and {@code /opds/*} before any feature's routes: every route needs a live session (cookie
 * {@code mc_session}) but those declared {@link #publicRoute} (login, reading the system info); admin routes also
 * accept {@code Authorization: Bearer <admin token>}; reading routes declared {@link #appReadable} (the OPDS catalog,
 * pages, CBZ downloads) also accept an app password over HTTP Basic, and no other route does; session requests that
 * change state must carry {@code X-CSRF-Token}; admin routes need the admin role. 401 without credentials, 403 for the
 * rest. What a route needs is declared where the route is declared ({@link #adminOnly}, {@link #publicRoute},
 * {@link #appReadable}), in whichever feature sub-router, never read from its path.
 */
public final class AccessGuard implements Handler<RoutingContext> {

  /** Where the current session is kept on the routing context. */
  public static final String SESSION = "mc.session";

  /** Route metadata (and routing-context key) that marks an admin-only route; see {@link #adminOnly}. */
  public static final String ADMIN_ONLY = "mc.adminOnly";

  /** Route metadata (and routing-context key) that marks a route open without a session; see {@link #publicRoute}. */
  public static final String PUBLIC = "mc.public";

  /** Route metadata (and routing-context key): a reading route open to app passwords; see {@link #appReadable}. */
  public static final String APP_READABLE = "mc.appReadable";

  /** The realm of the Basic challenge that reading apps answer with a user name and an app password. */
  public static final String BASIC_REALM = "MangaCircus";

  /** Every route under this path must be declared {@link #adminOnly}, or {@link #learnRoutes} refuses. */
  static final String ADMIN_AREA = "/api/admin/";

  /** The role of a request admitted by an app password: no admin check accepts it. */
  public static final String APP_ROLE = "app";

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AccessGuard.class);

  private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

  private final Vertx vertx;
  private final SessionStore sessions;
  private final byte[] adminToken;
  private final InstantSource clock;
  private final java.util.concurrent.ConcurrentHashMap<String, Remembered> remembered =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How long a looked-up session is trusted without asking the database again (logout and user changes forget). */
  static final java.time.Duration REMEMBER = java.time.Duration.ofSeconds(5);

  private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong lookups = new java.util.concurrent.atomic.AtomicLong();
  private final AppPasswords appPasswords;
  private final LoginThrottle throttle;

  private record Remembered(Session session, java.time.Instant until) {
  }

  public AccessGuard(Vertx vertx, SessionStore sessions, AppPasswordStore appPasswordStore, String adminToken,
      InstantSource clock) {
    this.vertx = vertx;
    this.sessions = sessions;
    this.adminToken = adminToken.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
    this.appPasswords = new AppPasswords(appPasswordStore, clock);
    this.throttle = new LoginThrottle(AccountRoutes.MAX_FAILURES, AccountRoutes.THROTTLE_WINDOW, clock);
  }

  /** The app passwords this guard accepts on {@link #appReadable} routes. */
  public AppPasswords appPasswords() {
    return appPasswords;
  }

  /** The one login throttle: failed logins and failed Basic attempts count in it together. */
  public LoginThrottle loginThrottle() {
    return throttle;
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
   * Declares {@code route} a reading route that an app password may read over HTTP Basic (besides a session): only
   * {@code GET} routes that change nothing but the reader's own position (the OPDS catalog, pages, CBZ downloads).
   * Never an admin route, an account route or one that changes state: {@link #learnRoutes} refuses those.
   */
  public static Route appReadable(Route route) {
    return route.putMetadata(APP_READABLE, true);
  }

  /**
   * Teaches the guard the routes of {@code router}, its feature sub-routers included, that are declared
   * {@link #adminOnly}, {@link #publicRoute} or {@link #appReadable}, so that the guard (which runs before any feature's
   * routes) knows what the route about to answer needs. A route with a plain path (literal segments and {@code :name}
   * parameters, {@link PlainRoutePath}) is matched by the guard itself against the request's normalized path, the way
   * Vert.x matches it but without a regular expression or decoding its parameters (a page image used to run its
   * route's pattern twice, once for a marker). Any other path gets a marker route with the same method and full path,
   * ordered before every other route, that flags a request it matches: Vert.x matches the marker exactly as it
   * matches the route. Both are grouped by leading pair of literal path segments ({@code /api/admin},
   * {@code /api/series}, ...), so that a request tries only the few under its own prefix. Call it once, after every
   * route is declared.
   *
   * @throws IllegalStateException when a route under {@code /api/admin/} is not declared admin-only, so that a
   *     forgotten declaration stops the start instead of opening an admin route to every account
   */
  public void learnRoutes(Router router) {
    int order = -100_000;
    java.util.Map<String, Router> groups = new java.util.HashMap<>();
    java.util.Map<String, java.util.List<PlainRoute>> plainGroups = new java.util.LinkedHashMap<>();
    for (RouteTable.Entry entry : RouteTable.of(router)) {
      boolean admin = Boolean.TRUE.equals(entry.route().getMetadata(ADMIN_ONLY));
      boolean open = Boolean.TRUE.equals(entry.route().getMetadata(PUBLIC));
      boolean app = Boolean.TRUE.equals(entry.route().getMetadata(APP_READABLE));
      String path = entry.path();
      if (app && (admin || open || entry.methods().isEmpty() || !Set.of(HttpMethod.GET).containsAll(entry.methods()))) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is declared app-readable but is "
            + "not a plain GET route that needs a session");
      }
      if (!admin && path != null && path.startsWith(ADMIN_AREA)) {
        throw new IllegalStateException("route " + entry.methods() + " " + path + " is under " + ADMIN_AREA
            + " but not declared AccessGuard.adminOnly");
      }
      if (!admin && !open && !app) {
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
            + "or app-readable but matches by prefix: declare each route it answers with its own path");
      }
      String flag = admin ? ADMIN_ONLY : open ? PUBLIC : APP_READABLE;
      String prefix = markerPrefix(path);
      PlainRoutePath plain = PlainRoutePath.parse(path);
      if (plain != null) {
        plainGroups.computeIfAbsent(prefix == null ? "" : prefix, p -> new java.util.ArrayList<>())
            .add(new PlainRoute(plain, entry.methods(), admin ? NEEDS_ADMIN : open ? NEEDS_NOTHING : OPEN_TO_APPS));
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

  /** Bits of what the routes a request reaches need, from the plain paths and the markers together. */
  static final int NEEDS_ADMIN = 1;
  static final int NEEDS_NOTHING = 2;
  static final int OPEN_TO_APPS = 4;

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
          | (Boolean.TRUE.equals(ctx.get(APP_READABLE)) ? OPEN_TO_APPS : 0);
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

  @Override
  public void handle(RoutingContext ctx) {
    int needs = needs(ctx);
    if ((needs & NEEDS_NOTHING) != 0) {
      ctx.next();
      return;
    }
    boolean admin = (needs & NEEDS_ADMIN) != 0;
    if (admin && bearerMatches(ctx)) {
      ctx.next();
      return;
    }
    boolean app = (needs & OPEN_TO_APPS) != 0;
    String authorization = ctx.request().getHeader("Authorization");
    if (app && authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
      Session same = ConnectionMemory.recall(ctx, authorization, generation(), clock.instant());
      if (same != null) {
        ctx.put(SESSION, same);
        ctx.next();
        return;
      }
      checkBasic(ctx, authorization, authorization.substring(6).trim());
      return;
    }
    // The first Cookie header: the one Vert.x reads the session cookie from (a second one is never looked at).
    String cookies = ctx.request().getHeader(HttpHeaders.COOKIE);
    Session same = ConnectionMemory.recall(ctx, cookies, generation(), clock.instant());
    if (same != null) {
      admit(ctx, same, admin);
      return;
    }
    Cookie cookie = ctx.request().getCookie(Sessions.COOKIE);
    if (cookie == null || cookie.getValue().isEmpty()) {
      deny(ctx, 401, "unauthorized", "log in first (POST /api/login)");
      return;
    }
    long asked = generation();
    lookup(cookie.getValue()).onComplete(ar -> {
      if (ar.failed()) {
        deny(ctx, 500, "internal_error", "sessions cannot be read: " + ar.cause().getMessage());
        return;
      }
      if (ar.result().isEmpty()) {
        deny(ctx, 401, "unauthorized", "the session has ended; log in again");
        return;
      }
      Session session = ar.result().get();
      ConnectionMemory.keep(ctx, cookies, session, asked, generation(), trustedUntil(cookie.getValue()));
      admit(ctx, session, admin);
    });
  }

  /** A live session's request: CSRF checked for changes, the admin role for admin routes, then on to the route. */
  private void admit(RoutingContext ctx, Session session, boolean admin) {
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
  }

  /**
   * Bumped by every change that ends a session or an app password early (logout, an account disabled or its password
   * changed, an app password revoked): what a connection remembers from before is not trusted any more.
   */
  private long generation() {
    return generation.get() + appPasswords.generation();
  }

  /**
   * The live session of a session token. A session read from the database is trusted for {@link #REMEMBER} so that
   * page images do not each cost a database read; {@link #forget} and {@link #forgetAll} end that at once.
   */
  public io.vertx.core.Future<java.util.Optional<Session>> lookup(String token) {
    lookups.incrementAndGet();
    String tokenHash = Sessions.hash(token);
    java.time.Instant now = clock.instant();
    Remembered known = remembered.get(tokenHash);
    if (known != null && now.isBefore(known.until()) && now.isBefore(known.session().expiresAt())) {
      return io.vertx.core.Future.succeededFuture(java.util.Optional.of(known.session()));
    }
    long asked = generation.get();
    return vertx.executeBlocking(() -> sessions.session(tokenHash, now), false).onSuccess(found -> {
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

  /** Until when a session looked up now is trusted from memory: no longer than the look-up's own span. */
  private java.time.Instant trustedUntil(String token) {
    Remembered known = remembered.get(Sessions.hash(token));
    return known == null ? clock.instant() : known.until();
  }

  /** How many session tokens were looked up (not admitted from what their connection remembered). */
  long lookups() {
    return lookups.get();
  }

  /** A session ended (logout): it is no longer trusted from memory. */
  public void forget(String tokenHash) {
    generation.incrementAndGet();
    remembered.remove(tokenHash);
  }

  /** Accounts changed (password, disabled): every session and app password is read from the database again. */
  public void forgetAll() {
    generation.incrementAndGet();
    remembered.clear();
    appPasswords.forgetAll();
  }

  /**
   * Reading apps are challenged for Basic credentials on the catalog's routes, or when they sent some; the browser's
   * routes keep the Bearer challenge, which never opens the browser's own password dialog.
   */
  private boolean basicChallenge(RoutingContext ctx) {
    String authorization = ctx.request().getHeader("Authorization");
    return (needs(ctx) & OPEN_TO_APPS) != 0 && (ctx.request().path().startsWith("/opds/")
        || authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6));
  }

  /**
   * An app password over HTTP Basic on a reading route: throttled like logins (per client address and user name), a
   * failure counted there; on success the request runs as the app password's user, with no CSRF token and no role
   * that any admin route accepts.
   */
  private void checkBasic(RoutingContext ctx, String authorization, String encoded) {
    String decoded;
    try {
      decoded = new String(java.util.Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      deny(ctx, 401, "unauthorized", "malformed Basic credentials");
      return;
    }
    int colon = decoded.indexOf(':');
    if (colon <= 0 || colon > 100 || decoded.length() > colon + 1 + 1000) {
      deny(ctx, 401, "unauthorized", "send a user name and an app password");
      return;
    }
    String username = decoded.substring(0, colon);
    String secret = decoded.substring(colon + 1);
    String user = username.toLowerCase(java.util.Locale.ROOT);
    String client = ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
    java.time.Duration wait = throttle.waitFor(client, user);
    if (!wait.isZero()) {
      long seconds = Math.max(1, wait.toSeconds());
      ctx.response().putHeader("Retry-After", String.valueOf(seconds));
      ApiReplies.error(ctx, 429, "too_many_attempts", "too many failed logins; try again in " + seconds + " s");
      return;
    }
    long asked = generation();
    vertx.executeBlocking(() -> appPasswords.check(username, secret), false).onComplete(ar -> {
      if (ar.failed()) {
        deny(ctx, 500, "internal_error", "app passwords cannot be read: " + ar.cause().getMessage());
        return;
      }
      if (ar.result().isEmpty()) {
        throttle.failed(client, user);
        LOG.info("[ACCOUNTS] failed app-password login for '{}' from {}", username, client);
        deny(ctx, 401, "unauthorized", "wrong user name or app password (the account password is not accepted "
            + "here: create an app password in your profile)");
        return;
      }
      throttle.succeeded(user);
      AppPasswords.Access access = ar.result().get();
      Session session = new Session("app-password:" + access.appPasswordId(),
          access.userId(), access.username(), APP_ROLE, null, java.time.Instant.MAX);
      ConnectionMemory.keep(ctx, authorization, session, asked, generation(), clock.instant().plus(REMEMBER));
      ctx.put(SESSION, session);
      ctx.next();
    });
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

  private void deny(RoutingContext ctx, int status, String error, String message) {
    if (status == 401) {
      ctx.response().putHeader("WWW-Authenticate", basicChallenge(ctx)
          ? "Basic realm=\"" + BASIC_REALM + "\", charset=\"UTF-8\"" : "Bearer realm=\"mangacircus\"");
    }
    ApiReplies.error(ctx, status, error, message);
  }
}
