package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.Session;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * Reading apps' credentials on the routes open to app passwords: an app password over HTTP Basic (with its user name)
 * or alone in {@code X-API-Key}, throttled with logins and remembered per connection; on a route that moves a reading
 * position, only an app password of scope {@code read+progress} passes. Sessions and the admin token are
 * {@link AccessGuard}'s.
 */
final class AppPasswordLogin {

  /** The header in which Mihon's Komga source may send the app password instead of Basic credentials. */
  static final String API_KEY_HEADER = "X-API-Key";

  private static final String API_KEY_PREFIX = API_KEY_HEADER + ": ";

  /** Where the Komga API is mounted: an app password admitted there opens a reading app's session. */
  private static final String KOMGA_PATH = "/komga/";

  /** The throttle's user for {@code X-API-Key} attempts (no login name holds a control character). */
  static final String API_KEY_USER = "\u0000api-key";

  /** The answer to an app password that may only read, on a route that moves a reading position. */
  static final String READ_ONLY_MESSAGE = "this app password may only read; create one with the read+progress scope "
      + "in your profile";

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AppPasswordLogin.class);

  /** How the guard answers a refused request (with the challenge its route calls for). */
  @FunctionalInterface
  interface Deny {
    void deny(RoutingContext ctx, int status, String error, String message);
  }

  private final AccessGuard guard;
  private final AppPasswords appPasswords;
  private final InstantSource clock;
  private final LongSupplier generation;
  private final Deny deny;
  private final java.util.concurrent.ConcurrentHashMap<String, Future<Optional<AppPasswords.Access>>> inFlight =
      new java.util.concurrent.ConcurrentHashMap<>();

  AppPasswordLogin(AccessGuard guard, InstantSource clock, LongSupplier generation, Deny deny) {
    this.guard = guard;
    this.appPasswords = guard.appPasswords();
    this.clock = clock;
    this.generation = generation;
    this.deny = deny;
  }

  /**
   * The app-password credentials a request offers: its Basic {@code Authorization}, else its API key as
   * {@code "X-API-Key: <key>"} (so that the two never read as each other); null when it offers neither.
   */
  static String offered(RoutingContext ctx) {
    String authorization = ctx.request().getHeader("Authorization");
    if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
      return authorization;
    }
    String key = ctx.request().getHeader(API_KEY_HEADER);
    return key == null ? null : API_KEY_PREFIX + key.trim();
  }

  /**
   * Admits the request as the app password in {@code credentials} ({@link #offered}) or answers it: 401 for wrong
   * credentials, 429 while throttled, 403 when {@code progress} and the app password may only read. On success the
   * request runs as the app password's user with its scope, no CSRF token and no role that any admin route accepts.
   */
  void admit(RoutingContext ctx, String credentials, boolean progress) {
    Session same = ConnectionMemory.recall(ctx, credentials, generation.getAsLong(), clock.instant());
    if (same != null) {
      pass(ctx, same, progress);
      return;
    }
    boolean basic = credentials.regionMatches(true, 0, "Basic ", 0, 6);
    String username;
    Optional<AppPasswords.Access> recalled;
    Callable<Optional<AppPasswords.Access>> check;
    if (basic) {
      String decoded;
      try {
        decoded = new String(java.util.Base64.getDecoder().decode(credentials.substring(6).trim()),
            StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        deny.deny(ctx, 401, "unauthorized", "malformed Basic credentials");
        return;
      }
      int colon = decoded.indexOf(':');
      if (colon <= 0 || colon > 100 || decoded.length() > colon + 1 + 1000) {
        deny.deny(ctx, 401, "unauthorized", "send a user name and an app password");
        return;
      }
      username = decoded.substring(0, colon);
      String secret = decoded.substring(colon + 1);
      recalled = appPasswords.recalled(username, secret);
      check = () -> appPasswords.check(username, secret);
    } else {
      username = API_KEY_USER;
      String secret = credentials.substring(API_KEY_PREFIX.length());
      recalled = appPasswords.recalledApiKey(secret);
      check = () -> appPasswords.checkApiKey(secret);
    }
    if (recalled.isPresent()) {
      // Checked moments ago (on another connection, or this one before its memory lapsed): no guess to count, and no
      // trip to the password threads, which a page stream's connections renewing together would fill.
      admitted(ctx, credentials, recalled.get(), generation.getAsLong(), progress);
      return;
    }
    String client = guard.clientAddress(ctx);
    LoginThrottle throttle = guard.loginThrottle();
    long asked = generation.getAsLong();
    // One check at a time per credentials: connections that offer the same ones together wait for it, and it counts
    // in the throttle once (one guess, whoever waits for its answer).
    LoginThrottle.Attempt begun = null;
    if (!inFlight.containsKey(credentials)) {
      begun = throttle.begin(client, username.toLowerCase(Locale.ROOT));
      if (!begun.admitted()) {
        AccessGuard.tooManyAttempts(ctx, begun.retryAfter());
        return;
      }
    }
    boolean[] started = {false};
    Future<Optional<AppPasswords.Access>> checked = inFlight.computeIfAbsent(credentials, offered -> {
      started[0] = true;
      return guard.passwordWork().submit(check);
    });
    if (started[0]) {
      // Not inside computeIfAbsent: a refused submit is already complete, and its handler would run at once.
      checked.onComplete(ar -> inFlight.remove(credentials, checked));
    } else if (begun != null) {
      throttle.abandoned(begun);
    }
    LoginThrottle.Attempt attempt = started[0] ? begun : null;
    checked.onComplete(ar -> {
      if (ar.failed()) {
        if (attempt != null) {
          throttle.abandoned(attempt);
        }
        if (ar.cause() instanceof PasswordWork.Busy) {
          AccessGuard.busy(ctx);
        } else {
          deny.deny(ctx, 500, "internal_error", "app passwords cannot be read: " + ar.cause().getMessage());
        }
        return;
      }
      if (ar.result().isEmpty()) {
        if (attempt != null) {
          throttle.failed(attempt);
        }
        LOG.info("[ACCOUNTS] failed app-password login {} from {}",
            basic ? "for '" + username + "'" : "by " + API_KEY_HEADER, client);
        deny.deny(ctx, 401, "unauthorized", basic ? "wrong user name or app password (the account password is not "
            + "accepted here: create an app password in your profile)" : "wrong app password in " + API_KEY_HEADER);
        return;
      }
      if (attempt != null) {
        throttle.succeeded(attempt);
      }
      admitted(ctx, credentials, ar.result().get(), asked, progress);
    });
  }

  /**
   * A request whose app password was accepted: remembered by its connection, given a reading app's session on the Komga
   * API (unless a revocation overlapped the check, {@code asked} being the generation before it), then let through.
   */
  private void admitted(RoutingContext ctx, String credentials, AppPasswords.Access access, long asked,
      boolean progress) {
    Session session = session(access);
    ConnectionMemory.keep(ctx, credentials, session, asked, generation.getAsLong(),
        clock.instant().plus(AccessGuard.REMEMBER));
    if (ctx.request().path().startsWith(KOMGA_PATH) && generation.getAsLong() == asked && !hasSession(ctx)) {
      String token = appPasswords.sessions().open(access, clock.instant());
      boolean secure = ctx.request().isSSL() || "https".equalsIgnoreCase(ctx.request().getHeader("X-Forwarded-Proto"));
      ctx.response().addCookie(io.vertx.core.http.Cookie.cookie(AppSessions.COOKIE, token).setPath("/")
          .setHttpOnly(true).setSameSite(io.vertx.core.http.CookieSameSite.STRICT).setSecure(secure)
          .setMaxAge(AppSessions.IDLE.toSeconds()));
    }
    pass(ctx, session, progress);
  }

  /** Whether the request carries a reading app's session that lasts. */
  private boolean hasSession(RoutingContext ctx) {
    io.vertx.core.http.Cookie cookie = ctx.request().getCookie(AppSessions.COOKIE);
    return cookie != null && appPasswords.sessions().find(cookie.getValue(), clock.instant()).isPresent();
  }


  /**
   * Admits the request as the reading app whose session the {@link AppSessions#COOKIE} cookie names; false (nothing
   * answered) when it names none that lasts.
   */
  boolean admitSession(RoutingContext ctx, boolean progress) {
    io.vertx.core.http.Cookie cookie = ctx.request().getCookie(AppSessions.COOKIE);
    if (cookie == null || !ctx.request().path().startsWith(KOMGA_PATH)) {
      return false;
    }
    Optional<AppPasswords.Access> access = appPasswords.sessions().find(cookie.getValue(), clock.instant());
    if (access.isEmpty()) {
      return false;
    }
    pass(ctx, session(access.get()), progress);
    return true;
  }

  private static Session session(AppPasswords.Access access) {
    return new Session("app-password:" + access.appPasswordId(), access.userId(), access.username(),
        AccessGuard.APP_ROLE, null, Instant.MAX, access.scope());
  }

  /** An app password's request: on a progress route only with a scope that allows it. */
  private void pass(RoutingContext ctx, Session session, boolean progress) {
    if (progress && !session.mayMoveProgress()) {
      deny.deny(ctx, 403, "forbidden", READ_ONLY_MESSAGE);
      return;
    }
    ctx.put(AccessGuard.SESSION, session);
    ctx.next();
  }
}
