package io.mangacircus.reader.accounts;

import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Account;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/admin/users}: list, create, reset a password, disable or enable (changes end the user's sessions), and
 * what each account may see ({@link UserAccessRoutes}).
 */
public final class UserAdminRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(UserAdminRoutes.class);
  private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /** Accepts any well-formed library name, for a reader that does not check them against its configuration. */
  public static final Supplier<Set<String>> ANY_LIBRARY = () -> null;

  /** The shortest password an account may have. */
  public static final int MIN_PASSWORD = 8;

  private final Vertx vertx;
  private final UserStore users;
  private final AccessGuard guard;
  private final InstantSource clock;

  private final UserAccessRoutes access;

  /** Routes that accept any well-formed library name in an account's access. */
  public UserAdminRoutes(Vertx vertx, UserStore users, AccessGuard guard, InstantSource clock) {
    this(vertx, users, guard, clock, ANY_LIBRARY, (user, access) -> { });
  }

  /**
   * @param knownLibraries the names of the configured libraries, asked at each change of an account's access; a
   *     null set (as {@link #ANY_LIBRARY} gives) accepts any well-formed name
   * @param accessChanged told of each account's access once an admin's change of it is stored
   */
  public UserAdminRoutes(Vertx vertx, UserStore users, AccessGuard guard, InstantSource clock,
      Supplier<Set<String>> knownLibraries,
      java.util.function.BiConsumer<String, io.mangacircus.reader.access.UserAccess> accessChanged) {
    this.vertx = vertx;
    this.users = users;
    this.guard = guard;
    this.clock = clock;
    this.access = new UserAccessRoutes(vertx, users, knownLibraries, accessChanged);
  }

  /** The routes, mounted at {@code /api/admin/users}, all admin-only. */
  public Router router() {
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.get("/")).handler(this::handleList);
    AccessGuard.adminOnly(router.post("/")).handler(this::handleCreate);
    AccessGuard.adminOnly(router.put("/:username/password")).handler(this::handlePassword);
    AccessGuard.adminOnly(router.put("/:username/disabled")).handler(this::handleDisabled);
    access.declare(router);
    return router;
  }

  private void handleList(RoutingContext ctx) {
    blocking(ctx, 200, () -> {
      JsonArray list = new JsonArray();
      Map<String, UserAccess> accesses = users.accesses();
      users.accounts().forEach(a -> list.add(json(a).put("access", UserAccessRoutes.json(a.username(), a.role(),
          accesses.getOrDefault(a.username(), UserAccess.EVERYTHING)))));
      return new JsonObject().put("users", list);
    });
  }

  private void handleCreate(RoutingContext ctx) {
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"username\", \"password\", \"role\"}");
    if (body.isEmpty()) {
      return;
    }
    String username = body.get().getValue("username") instanceof String s ? s : "";
    String password = body.get().getValue("password") instanceof String s ? s : "";
    String role = body.get().getValue("role") instanceof String s ? s : "reader";
    if (!USERNAME.matcher(username).matches()) {
      ApiReplies.error(ctx, 400, "bad_request", "a user name is 1 to 64 letters, digits, '.', '_' or '-'");
      return;
    }
    if (!role.equals("admin") && !role.equals("reader")) {
      ApiReplies.error(ctx, 400, "bad_request", "role is 'admin' or 'reader'");
      return;
    }
    if (badPassword(ctx, password)) {
      return;
    }
    vertx.executeBlocking(() -> {
      if (users.user(username).isPresent()) {
        return null;
      }
      users.createUser(username, PasswordHasher.hash(password.toCharArray()), role, clock.instant());
      return account(username);
    }, false).onComplete(ar -> {
      if (ar.failed()) {
        ApiReplies.failure(ctx, ar.cause());
      } else if (ar.result() == null) {
        ApiReplies.error(ctx, 409, "exists", "a user named " + username + " exists");
      } else {
        LOG.info("[ACCOUNTS] {} created user '{}' ({})", actor(ctx), username, role);
        ctx.response().setStatusCode(201);
        ctx.json(json(ar.result()));
      }
    });
  }

  private void handlePassword(RoutingContext ctx) {
    String username = ctx.pathParam("username");
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"password\": \"...\"}");
    if (body.isEmpty()) {
      return;
    }
    String password = body.get().getValue("password") instanceof String s ? s : "";
    if (badPassword(ctx, password)) {
      return;
    }
    vertx.executeBlocking(() -> users.setPassword(username, PasswordHasher.hash(password.toCharArray()),
            clock.instant()), false)
        .onComplete(ar -> {
          if (ar.failed()) {
            ApiReplies.failure(ctx, ar.cause());
          } else if (!ar.result()) {
            ApiReplies.error(ctx, 404, "not_found", "no user named " + username);
          } else {
            guard.forgetAll();
            LOG.info("[ACCOUNTS] {} reset the password of '{}'; its sessions and app passwords ended", actor(ctx), username);
            ctx.response().setStatusCode(204).end();
          }
        });
  }

  private void handleDisabled(RoutingContext ctx) {
    String username = ctx.pathParam("username");
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"disabled\": true|false}");
    if (body.isEmpty()) {
      return;
    }
    if (!(body.get().getValue("disabled") instanceof Boolean disabled)) {
      ApiReplies.error(ctx, 400, "bad_request", "send {\"disabled\": true} or {\"disabled\": false}");
      return;
    }
    Session session = ctx.get(AccessGuard.SESSION);
    if (disabled && session != null && session.username().equalsIgnoreCase(username)) {
      ApiReplies.error(ctx, 409, "self", "you cannot disable your own account");
      return;
    }
    vertx.executeBlocking(() -> {
      Optional<User> user = users.user(username);
      if (user.isEmpty()) {
        return "not_found";
      }
      if (disabled && "admin".equals(user.get().role()) && !user.get().disabled() && users.countAdmins() <= 1) {
        return "last_admin";
      }
      users.setDisabled(username, disabled);
      return "ok";
    }, false).onComplete(ar -> {
      if (ar.failed()) {
        ApiReplies.failure(ctx, ar.cause());
        return;
      }
      switch (ar.result()) {
        case "not_found" -> ApiReplies.error(ctx, 404, "not_found", "no user named " + username);
        case "last_admin" -> ApiReplies.error(ctx, 409, "last_admin", "that would leave no enabled admin account");
        default -> {
          guard.forgetAll();
          LOG.info("[ACCOUNTS] {} {} user '{}'", actor(ctx), disabled ? "disabled" : "enabled", username);
          blocking(ctx, 200, () -> json(account(username)));
        }
      }
    });
  }

  private Account account(String username) throws StoreException {
    return users.accounts().stream().filter(a -> a.username().equalsIgnoreCase(username)).findFirst()
        .orElseThrow();
  }

  /** Answers 400 when {@code password} breaks the rules of every account password (an admin's reset, a user's own). */
  static boolean badPassword(RoutingContext ctx, String password) {
    if (password.length() < MIN_PASSWORD || password.length() > 1000) {
      ApiReplies.error(ctx, 400, "bad_request", "a password has " + MIN_PASSWORD + " to 1000 characters");
      return true;
    }
    if (password.isBlank()) {
      ApiReplies.error(ctx, 400, "bad_request", "a password of only spaces is not a password");
      return true;
    }
    return false;
  }

  private static String actor(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    return session == null ? "the admin token" : "'" + session.username() + "'";
  }

  private static JsonObject json(Account account) {
    return new JsonObject().put("username", account.username()).put("role", account.role())
        .put("disabled", account.disabled()).put("createdAt", account.createdAt().toString());
  }

  private void blocking(RoutingContext ctx, int status, Callable<JsonObject> work) {
    ApiReplies.blocking(vertx, ctx, work, body -> {
      ctx.response().setStatusCode(status);
      ctx.json(body);
    });
  }
}
