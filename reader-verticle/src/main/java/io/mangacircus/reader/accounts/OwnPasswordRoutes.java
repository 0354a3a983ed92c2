package io.mangacircus.reader.accounts;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code PUT /api/me/password}: the signed-in user changes their own password, giving the current one (a wrong one
 * counts in the login throttle, as a failed login of that user from that address). The user's other sessions end; the
 * one that asked stays, and so do the app passwords, which the user revokes one by one. Session only.
 */
public final class OwnPasswordRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(OwnPasswordRoutes.class);

  private final Vertx vertx;
  private final UserStore users;
  private final AccessGuard guard;
  private final LoginThrottle throttle;

  public OwnPasswordRoutes(Vertx vertx, UserStore users, AccessGuard guard) {
    this.vertx = vertx;
    this.users = users;
    this.guard = guard;
    this.throttle = guard.loginThrottle();
  }

  /** The route, mounted at {@code /api/me/password}. */
  public Router router() {
    Router router = Router.router(vertx);
    router.put("/").handler(this::handleChange);
    return router;
  }

  private enum Outcome { CHANGED, WRONG_CURRENT, NO_USER, PROVIDER_ONLY }

  private void handleChange(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"current\": \"...\", \"password\": \"...\"}");
    if (body.isEmpty()) {
      return;
    }
    if (!(body.get().getValue("current") instanceof String current) || current.isEmpty() || current.length() > 1000) {
      ApiReplies.error(ctx, 400, "bad_request", "current: send your current password");
      return;
    }
    String password = body.get().getValue("password") instanceof String s ? s : "";
    if (UserAdminRoutes.badPassword(ctx, password)) {
      return;
    }
    String client = guard.clientAddress(ctx);
    // The same pair as a login of this user from this address: guessing here gains nothing over guessing there.
    LoginThrottle.Attempt attempt = throttle.begin(client, session.username().toLowerCase(Locale.ROOT));
    if (!attempt.admitted()) {
      AccessGuard.tooManyAttempts(ctx, attempt.retryAfter());
      return;
    }
    guard.passwordWork().submit(() -> change(session, current, password)).onComplete(ar -> {
      if (ar.failed()) {
        throttle.abandoned(attempt);
        if (ar.cause() instanceof PasswordWork.Busy) {
          AccessGuard.busy(ctx);
          return;
        }
        LOG.error("[ACCOUNTS] '{}' could not change their password: {}", session.username(), ar.cause().toString());
        ApiReplies.error(ctx, 500, "internal_error", "the account database is not available");
        return;
      }
      switch (ar.result()) {
        case WRONG_CURRENT -> {
          throttle.failed(attempt);
          LOG.info("[ACCOUNTS] '{}' gave a wrong current password when changing it, from {}", session.username(),
              client);
          ApiReplies.error(ctx, 403, "forbidden", "current: that is not your current password");
        }
        case PROVIDER_ONLY -> {
          throttle.abandoned(attempt);
          ApiReplies.error(ctx, 409, "signs_in_with_provider", "this account signs in with the single sign-on "
              + "provider and has no password here; change it at the provider");
        }
        case NO_USER -> {
          throttle.abandoned(attempt);
          ApiReplies.error(ctx, 401, "unauthorized", "the session has ended; log in again");
        }
        default -> {
          throttle.succeeded(attempt);
          guard.forgetAll();
          LOG.info("[ACCOUNTS] '{}' changed their password; their other sessions ended", session.username());
          ctx.response().setStatusCode(204).end();
        }
      }
    });
  }

  /** Checks the current password and stores the new one (both hashes on the password workers). */
  private Outcome change(Session session, String current, String password) throws StoreException {
    Optional<User> user = users.userById(session.userId()).filter(u -> !u.disabled());
    if (user.isEmpty()) {
      return Outcome.NO_USER;
    }
    if (PasswordHasher.noPassword(user.get().passwordHash())) {
      return Outcome.PROVIDER_ONLY;
    }
    if (!PasswordHasher.verifyAccount(current.toCharArray(), user.get().passwordHash())) {
      return Outcome.WRONG_CURRENT;
    }
    return users.changeOwnPassword(session.userId(), PasswordHasher.hash(password.toCharArray()),
        session.tokenHash()) ? Outcome.CHANGED : Outcome.NO_USER;
  }
}
