package io.mangacircus.reader.accounts;

import static io.mangacircus.reader.accounts.RouteNeeds.NEEDS_ADMIN;
import static io.mangacircus.reader.accounts.RouteNeeds.NEEDS_NOTHING;
import static io.mangacircus.reader.accounts.RouteNeeds.OPEN_TO_APPS;
import static io.mangacircus.reader.accounts.RouteNeeds.OPEN_TO_PROGRESS;

import io.mangacircus.reader.http.ApiReplies;
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
import io.mangacircus.reader.http.TrustedProxies;
import java.time.InstantSource;
import java.util.Set;

/**
 * Guards {@code /api/*}, {@code /opds/*} and {@code /komga/*} before any feature's routes: every route needs a live
 * session (cookie {@code mc_session}) but those declared {@link #publicRoute} (login, reading the system info);
 * admin routes also accept {@code Authorization: Bearer <admin token>}; reading routes declared {@link #appReadable}
 * (the OPDS catalog, the Komga API, pages, CBZ downloads) and progress routes declared {@link #appProgress} also accept
 * an app password over HTTP Basic or in {@code X-API-Key} ({@link AppPasswordLogin}), and no other route does; session
 * requests that change state must carry {@code X-CSRF-Token}; admin routes need the admin role. 401 without
 * credentials, 403 for the rest. What a route needs is declared where the route is declared ({@link #adminOnly},
 * {@link #publicRoute}, {@link #appReadable}, {@link #appProgress}), in whichever feature sub-router, never read from
 * its path.
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

  /**
   * Route metadata (and routing-context key): a route that moves the user's own reading position, open to app
   * passwords whose scope allows it; see {@link #appProgress}.
   */
  public static final String APP_PROGRESS = "mc.appProgress";

  /** The realm of the Basic challenge that reading apps answer with a user name and an app password. */
  public static final String BASIC_REALM = "MangaCircus";

  /**
   * The role of a request admitted by an app password: no admin check accepts it. Its session's
   * {@link Session#appScope()} says what the app password may do ({@link Session#mayMoveProgress()}).
   */
  public static final String APP_ROLE = "app";

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AccessGuard.class);

  private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

  private final Vertx vertx;
  private final BearerToken adminToken;
  private final TrustedProxies proxies;
  private final PasswordWork passwordWork;
  private final InstantSource clock;
  private final SessionLookups sessions;
  private final RouteNeeds routes;

  /** How long a looked-up session is trusted without asking the database again (logout and user changes forget). */
  static final java.time.Duration REMEMBER = java.time.Duration.ofSeconds(5);

  private final AppPasswords appPasswords;
  private final LoginThrottle throttle;
  private final AppPasswordLogin appLogin;
  private volatile Told told = Told.NOBODY;

  /** Who hears of the changes this guard forgets (the other readers, {@link PeerReaders}); never of applied ones. */
  interface Told {
    Told NOBODY = new Told() {
      @Override
      public void sessionEnded(String tokenHash) {
      }

      @Override
      public void credentialsChanged() {
      }
    };

    /** A session ended here (logout). */
    void sessionEnded(String tokenHash);

    /** Passwords, disabled accounts or app passwords changed here. */
    void credentialsChanged();
  }

  /** The throttle's user for guesses at the admin bearer token (no login name holds a control character). */
  static final String ADMIN_TOKEN_USER = "\u0000admin-token";

  public AccessGuard(Vertx vertx, SessionStore sessionStore, AppPasswordStore appPasswordStore, String adminToken,
      InstantSource clock) {
    this(vertx, sessionStore, appPasswordStore, adminToken, TrustedProxies.none(), clock);
  }

  /** @param proxies the reverse proxies whose {@code X-Forwarded-For} names the client ({@code reader.trustProxy}) */
  public AccessGuard(Vertx vertx, SessionStore sessionStore, AppPasswordStore appPasswordStore, String adminToken,
      TrustedProxies proxies, InstantSource clock) {
    this.vertx = vertx;
    this.adminToken = new BearerToken(adminToken);
    this.proxies = proxies;
    this.passwordWork = new PasswordWork(vertx);
    this.clock = clock;
    this.sessions = new SessionLookups(vertx, sessionStore, clock);
    this.routes = new RouteNeeds(vertx);
    this.appPasswords = new AppPasswords(appPasswordStore, clock);
    this.throttle = new LoginThrottle(AccountRoutes.MAX_FAILURES, AccountRoutes.THROTTLE_WINDOW, clock);
    this.appLogin = new AppPasswordLogin(this, clock, this::generation, this::deny);
    appPasswords.onRevoked(() -> told.credentialsChanged());
  }

  /** Tells {@code listener} of every session ended and every credentials change made through this guard. */
  void tell(Told listener) {
    this.told = listener;
  }

  /** The app passwords this guard accepts on {@link #appReadable} and {@link #appProgress} routes. */
  public AppPasswords appPasswords() {
    return appPasswords;
  }

  /** The one login throttle: failed logins, Basic attempts and admin-token guesses count in it together. */
  public LoginThrottle loginThrottle() {
    return throttle;
  }

  /** Where password checks run, bounded: logins and app passwords share it. */
  public PasswordWork passwordWork() {
    return passwordWork;
  }

  /** The client's address: the socket's peer, or what a trusted proxy says in {@code X-Forwarded-For}. */
  public String clientAddress(RoutingContext ctx) {
    String peer = ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
    return proxies.client(peer, ctx.request().headers().getAll("X-Forwarded-For"));
  }

  /** Answers 429 with {@code Retry-After} for a refused attempt. */
  public static void tooManyAttempts(RoutingContext ctx, java.time.Duration wait) {
    long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
    ctx.response().putHeader("Retry-After", String.valueOf(seconds));
    ApiReplies.error(ctx, 429, "too_many_attempts", "too many failed attempts; try again in " + seconds + " s");
  }

  /** Answers 503 with {@code Retry-After}: too many password checks are running or waiting. */
  public static void busy(RoutingContext ctx) {
    ctx.response().putHeader("Retry-After", "1");
    ApiReplies.error(ctx, 503, "busy", "too many logins at once; try again in a second");
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
   * Declares {@code route} one that moves only the user's own reading position (the reading apps' progress routes):
   * a session may use it (with its CSRF header), and so may an app password whose scope is {@code read+progress};
   * an app password that may only read gets 403.
   */
  public static Route appProgress(Route route) {
    return route.putMetadata(APP_PROGRESS, true);
  }

  /**
   * Teaches the guard the routes of {@code router}, its feature sub-routers included, that are declared
   * {@link #adminOnly}, {@link #publicRoute}, {@link #appReadable} or {@link #appProgress}, so that the guard (which
   * runs before any feature's routes) knows what the route about to answer needs. A route with a plain path (literal
   * segments and {@code :name} parameters, {@link PlainRoutePath}) is matched by the guard itself against the request's
   * normalized path, the way Vert.x matches it but without a regular expression or decoding its parameters (a page
   * image used to run its route's pattern twice, once for a marker). Any other path gets a marker route with the same
   * method and full path, ordered before every other route, that flags a request it matches: Vert.x matches the marker
   * exactly as it matches the route. Both are grouped by leading pair of literal path segments ({@code /api/admin},
   * {@code /api/series}, ...), so that a request tries only the few under its own prefix. Call it once, after every
   * route is declared.
   *
   * @throws IllegalStateException when a route under {@code /api/admin/} is not declared admin-only, so that a
   *     forgotten declaration stops the start instead of opening an admin route to every account
   */
  public void learnRoutes(Router router) {
    routes.learn(router);
  }

  /**
   * What the declared routes that {@code ctx}'s request reaches need ({@link RouteNeeds#NEEDS_ADMIN} ...): every
   * matching route counts, as every matching marker flags the request.
   */
  int needs(RoutingContext ctx) {
    return routes.needs(ctx);
  }

  @Override
  public void handle(RoutingContext ctx) {
    int needs = needs(ctx);
    if ((needs & NEEDS_NOTHING) != 0) {
      ctx.next();
      return;
    }
    boolean admin = (needs & NEEDS_ADMIN) != 0;
    if (admin && adminToken.enabled() && BearerToken.offered(ctx.request().getHeader("Authorization"))) {
      checkBearer(ctx);
      return;
    }
    String offered = (needs & (OPEN_TO_APPS | OPEN_TO_PROGRESS)) != 0 ? AppPasswordLogin.offered(ctx) : null;
    if (offered != null) {
      appLogin.admit(ctx, offered, (needs & OPEN_TO_PROGRESS) != 0);
      return;
    }
    if ((needs & (OPEN_TO_APPS | OPEN_TO_PROGRESS)) != 0 && appLogin.admitSession(ctx, (needs & OPEN_TO_PROGRESS) != 0)) {
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
      ConnectionMemory.keep(ctx, cookies, session, asked, generation(), sessions.trustedUntil(cookie.getValue()));
      admit(ctx, session, admin);
    });
  }

  /**
   * An admin route with a bearer token: throttled like logins (per client address), the right token admits, a wrong one
   * is counted and logged without the token and answered 401 (a session cookie on the same request is not consulted:
   * the request chose its credentials).
   */
  private void checkBearer(RoutingContext ctx) {
    String client = clientAddress(ctx);
    LoginThrottle.Attempt attempt = throttle.begin(client, ADMIN_TOKEN_USER);
    if (!attempt.admitted()) {
      tooManyAttempts(ctx, attempt.retryAfter());
      return;
    }
    String authorization = ctx.request().getHeader("Authorization");
    if (adminToken.matches(authorization)) {
      throttle.succeeded(attempt);
      ctx.next();
      return;
    }
    throttle.failed(attempt);
    LOG.warn("[ACCOUNTS] wrong admin token from {} on {} {} (a token of {} characters, not logged)", client,
        ctx.request().method(), ctx.request().path(), authorization.substring(7).trim().length());
    deny(ctx, 401, "unauthorized", "wrong admin token");
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
    return sessions.generation() + appPasswords.generation();
  }

  /**
   * The live session of a session token. A session read from the database is trusted for {@link #REMEMBER} so that
   * page images do not each cost a database read; {@link #forget} and {@link #forgetAll} end that at once.
   */
  public io.vertx.core.Future<java.util.Optional<Session>> lookup(String token) {
    return sessions.lookup(token);
  }

  /** How many session tokens were looked up (not admitted from what their connection remembered). */
  long lookups() {
    return sessions.lookups();
  }

  /** A session ended (logout): it is no longer trusted from memory, here and on the other readers. */
  public void forget(String tokenHash) {
    forgetHere(tokenHash);
    told.sessionEnded(tokenHash);
  }

  /**
   * Accounts changed (password, disabled): every session and app password is read from the database again, here and
   * on the other readers.
   */
  public void forgetAll() {
    forgetAllHere();
    told.credentialsChanged();
  }

  /** {@link #forget} told by another reader: only this reader's memory. */
  void forgetHere(String tokenHash) {
    sessions.forget(tokenHash);
  }

  /** {@link #forgetAll} told by another reader: only this reader's memory. */
  void forgetAllHere() {
    sessions.forgetAll();
    appPasswords.forgetAll();
  }

  /**
   * Reading apps are challenged for Basic credentials anywhere under the catalog and the Komga API (a path no route
   * answers included: an app that signs in is then told it does not exist), and on the other routes open to them when
   * they sent some; the browser's routes keep the Bearer challenge, which never opens the browser's own password
   * dialog.
   */
  private boolean basicChallenge(RoutingContext ctx) {
    String path = ctx.request().path();
    if (path.startsWith("/opds/") || path.startsWith("/komga/")) {
      return true;
    }
    String authorization = ctx.request().getHeader("Authorization");
    return (needs(ctx) & (OPEN_TO_APPS | OPEN_TO_PROGRESS)) != 0
        && authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6);
  }

  private void deny(RoutingContext ctx, int status, String error, String message) {
    if (status == 401) {
      ctx.response().putHeader("WWW-Authenticate", basicChallenge(ctx)
          ? "Basic realm=\"" + BASIC_REALM + "\", charset=\"UTF-8\"" : "Bearer realm=\"mangacircus\"");
    }
    ApiReplies.error(ctx, status, error, message);
  }
}