package io.mangacircus.reader.accounts;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.reader.access.SeriesAccess;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/admin/users/{username}/access}: what an account may see (its libraries, its age limit), read and set by
 * an admin. It stores the rule; the routes that serve series apply it.
 */
final class UserAccessRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(UserAccessRoutes.class);
  private static final String SHAPE = "{\"libraries\": \"all\" or [\"downloads\", ...], \"ageLimit\": \"none\", "
      + "\"all\", \"9\", \"12\", \"15\" or \"18\", \"unratedShown\": true|false}";

  private final Vertx vertx;
  private final UserStore users;
  private final Supplier<Set<String>> knownLibraries;
  private final java.util.function.BiConsumer<String, UserAccess> changed;

  /**
   * @param knownLibraries the library names an account may be given; a null set accepts any well-formed name
   * @param changed told of each account's access once it is stored (its user name as stored)
   */
  UserAccessRoutes(Vertx vertx, UserStore users, Supplier<Set<String>> knownLibraries,
      java.util.function.BiConsumer<String, UserAccess> changed) {
    this.vertx = vertx;
    this.users = users;
    this.knownLibraries = knownLibraries;
    this.changed = changed;
  }

  /** Declares the routes on the users router, admin-only like the rest of it. */
  void declare(Router router) {
    AccessGuard.adminOnly(router.get("/:username/access")).handler(this::handleGet);
    AccessGuard.adminOnly(router.put("/:username/access")).handler(this::handlePut);
  }

  private void handleGet(RoutingContext ctx) {
    String username = ctx.pathParam("username");
    ApiReplies.blocking(vertx, ctx, () -> {
      Optional<User> user = users.user(username);
      return user.isEmpty() ? null : json(user.get().username(), user.get().role(),
          users.access(username).orElseThrow());
    }, body -> answer(ctx, username, body));
  }

  private void handlePut(RoutingContext ctx) {
    String username = ctx.pathParam("username");
    Optional<JsonObject> body = ApiReplies.body(ctx, SHAPE);
    if (body.isEmpty()) {
      return;
    }
    Object unrated = body.get().getValue("unratedShown", false);
    if (!(unrated instanceof Boolean unratedShown)) {
      ApiReplies.error(ctx, 400, "bad_request", "unratedShown is true or false");
      return;
    }
    if (!(body.get().getValue("ageLimit") instanceof String text)) {
      ApiReplies.error(ctx, 400, "bad_request", "send " + SHAPE);
      return;
    }
    AgeLimit.Parsed parsed = AgeLimit.parse(text);
    if (parsed instanceof AgeLimit.Invalid invalid) {
      ApiReplies.error(ctx, 400, "bad_request", invalid.message());
      return;
    }
    AgeLimit limit = ((AgeLimit.Valid) parsed).limit().withUnratedShown(unratedShown);
    Optional<UserAccess> access = access(ctx, body.get().getValue("libraries"), limit);
    if (access.isEmpty()) {
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> {
      if (!users.setAccess(username, access.get())) {
        return null;
      }
      User user = users.user(username).orElseThrow();
      changed.accept(user.username(), access.get());
      return json(user.username(), user.role(), access.get());
    }, saved -> {
      if (saved != null) {
        LOG.info("[ACCOUNTS] {} set what '{}' may see: libraries {}, age limit {}, unrated {}", actor(ctx), username,
            saved.getValue("libraries"), saved.getString("ageLimit"), unratedShown ? "shown" : "hidden");
      }
      answer(ctx, username, saved);
    });
  }

  /** The libraries part of a body, or empty after answering 400. */
  private Optional<UserAccess> access(RoutingContext ctx, Object libraries, AgeLimit limit) {
    if ("all".equals(libraries)) {
      return Optional.of(UserAccess.allLibraries(limit));
    }
    if (!(libraries instanceof JsonArray list) || list.size() > 100) {
      ApiReplies.error(ctx, 400, "bad_request", "libraries is \"all\" or a list of up to 100 library names");
      return Optional.empty();
    }
    Set<String> names = new LinkedHashSet<>();
    Set<String> known = knownLibraries.get();
    for (Object item : list) {
      if (!(item instanceof String name) || !UserAccess.LIBRARY_NAME.matcher(name).matches()) {
        ApiReplies.error(ctx, 400, "bad_request", "a library name is 1 to 32 of a-z, 0-9 and '-'");
        return Optional.empty();
      }
      if (known != null && !known.contains(name)) {
        ApiReplies.error(ctx, 400, "unknown_library", "there is no library named " + name);
        return Optional.empty();
      }
      names.add(name);
    }
    return Optional.of(UserAccess.only(names, limit));
  }

  private static void answer(RoutingContext ctx, String username, JsonObject body) {
    if (body == null) {
      ApiReplies.error(ctx, 404, "not_found", "no user named " + username);
    } else {
      ctx.json(body);
    }
  }

  /** The access as the admin routes send and take it, with whether the account sees everything anyway. */
  static JsonObject json(String username, String role, UserAccess access) {
    return new JsonObject().put("username", username)
        .put("libraries", access.allLibraries() ? "all" : new JsonArray(java.util.List.copyOf(access.libraries())))
        .put("ageLimit", access.ageLimit().text()).put("unratedShown", access.ageLimit().unratedShown())
        .put("seesEverything", SeriesAccess.of(role, access).seesEverything());
  }

  private static String actor(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    return session == null ? "the admin token" : "'" + session.username() + "'";
  }
}
