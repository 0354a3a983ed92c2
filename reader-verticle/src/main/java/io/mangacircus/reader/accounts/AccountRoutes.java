package io.mangacircus.reader.accounts;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.SessionStore;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/login}, {@code POST /api/logout}, {@code GET /api/me} and the public {@code GET /api/login/options}:
 * sessions in an HttpOnly cookie.
 */
public final class AccountRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(AccountRoutes.class);

  /** Failed logins of one user name from one client address before that pair is locked out. */
  public static final int MAX_FAILURES = 5;

  /** The window for those failures and the lock-out. */
  public static final Duration THROTTLE_WINDOW = Duration.ofMinutes(15);

  private final Vertx vertx;
  private final UserStore users;
  private final SessionStore sessions;
  private final LoginThrottle throttle;
  private final SessionStart sessionStart;
  private final AccessGuard guard;
  private final LoginOptions options;

  public AccountRoutes(Vertx vertx, UserStore users, SessionStore sessions, AccessGuard guard,
      Duration sessionLength, InstantSource clock) {
    this(vertx, users, sessions, guard, new SessionStart(sessions, sessionLength, clock), LoginOptions.PASSWORD_ONLY);
  }

  /** @param options how users may sign in: password login on or off, and where a logout sends the browser next */
  public AccountRoutes(Vertx vertx, UserStore users, SessionStore sessions, AccessGuard guard,
      SessionStart sessionStart, LoginOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.guard = guard;
    this.users = users;
    this.sessions = sessions;
    // One throttle for logins and app passwords over Basic: a guesser gains nothing by switching between them.
    this.throttle = guard.loginThrottle();
    this.sessionStart = sessionStart;
  }

  /** The routes, mounted at {@code /api}; login is public, the rest need the session the access guard found. */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.publicRoute(router.post("/login")).handler(this::handleLogin);
    AccessGuard.publicRoute(router.get("/login/options")).handler(ctx -> ctx.json(options.describe()));
    router.post("/logout").handler(this::handleLogout);
    router.get("/me").handler(this::handleMe);
    return router;
  }

  private void handleLogin(RoutingContext ctx) {
    if (!options.passwordLogin()) {
      ApiReplies.error(ctx, 403, "password_login_off", "password login is turned off on this server; sign in with "
          + "the provider (reading apps keep using their app passwords)");
      return;
    }
    JsonObject body;
    try {
      body = ctx.body().asJsonObject();
    } catch (DecodeException | ClassCastException e) {
      body = null;
    }
    if (body == null || !(body.getValue("username") instanceof String username)
        || !(body.getValue("password") instanceof String password) || username.isBlank() || username.length() > 100
        || password.length() > 1000) {
      ApiReplies.error(ctx, 400, "bad_request", "send JSON {\"username\": ..., \"password\": ...}");
      return;
    }
    if (ApiReplies.refuseControlCharacters(ctx, body)) {
      return;
    }
    String client = guard.clientAddress(ctx);
    // Counted before the password is checked, so that logins sent at once cannot all pass the throttle.
    LoginThrottle.Attempt attempt = throttle.begin(client, username.toLowerCase(java.util.Locale.ROOT));
    if (!attempt.admitted()) {
      AccessGuard.tooManyAttempts(ctx, attempt.retryAfter());
      return;
    }
    guard.passwordWork().submit(() -> login(username, password)).onComplete(ar -> {
      if (ar.failed()) {
        throttle.abandoned(attempt);
        if (ar.cause() instanceof PasswordWork.Busy) {
          LOG.info("[ACCOUNTS] login for '{}' from {} refused: too many password checks at once", username, client);
          AccessGuard.busy(ctx);
          return;
        }
        LOG.error("[ACCOUNTS] login for {} failed on the database: {}", username, ar.cause().toString());
        ApiReplies.error(ctx, 500, "internal_error", "the account database is not available");
        return;
      }
      if (ar.result() == null) {
        throttle.failed(attempt);
        LOG.info("[ACCOUNTS] failed login for '{}' from {}", username, client);
        ApiReplies.error(ctx, 401, "unauthorized", "wrong user name or password");
        return;
      }
      throttle.succeeded(attempt);
      Login login = ar.result();
      sessionStart.setCookie(ctx, login.started());
      ctx.json(new JsonObject().put("username", login.user().username()).put("role", login.user().role())
          .put("csrfToken", login.started().csrf()));
    });
  }

  private record Login(User user, SessionStart.Started started) {
  }

  private Login login(String username, String password) throws StoreException {
    var user = users.user(username).filter(u -> !u.disabled());
    if (!PasswordHasher.verifyAccount(password.toCharArray(), user.map(User::passwordHash).orElse(null))) {
      return null;
    }
    return new Login(user.get(), sessionStart.create(user.get().id()));
  }

  private void handleLogout(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    vertx.executeBlocking(() -> {
      sessions.deleteSession(session.tokenHash());
      return null;
    }).onComplete(ar -> {
      guard.forget(session.tokenHash());
      ctx.response().addCookie(Cookie.cookie(Sessions.COOKIE, "").setHttpOnly(true).setPath("/")
          .setSameSite(CookieSameSite.STRICT).setMaxAge(0));
      Optional<String> next = options.afterLogout().apply(ctx);
      if (next.isEmpty()) {
        ctx.response().setStatusCode(204).end();
      } else {
        // The provider's own session is ended there: the page sends the browser on (docs/api.md).
        ctx.json(new JsonObject().put("next", next.get()));
      }
    });
  }

  private void handleMe(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    if (session == null) {
      ApiReplies.error(ctx, 401, "unauthorized", "no session");
      return;
    }
    ctx.json(new JsonObject().put("username", session.username()).put("role", session.role())
        .put("csrfToken", session.csrfToken()).put("expiresAt", session.expiresAt().toString()));
  }

}
