package io.mangacircus.reader.trackers;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.accounts.SessionStart;
import io.mangacircus.reader.accounts.Sessions;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.SessionStore;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/me/trackers} (docs/api.md "Trackers"): the signed-in user's tracker accounts — which trackers the admin
 * enabled and how the user's sign-in on each stands, signing in (an OAuth redirect, or a user name and password passed
 * once to the tracker and never kept), signing out, searching a tracker, and the user's linked series with how their
 * last sync went; and the OAuth trackers' callback, which signs in only the user who started that sign-in, on whichever
 * reader it lands. No answer ever holds a token.
 */
public final class TrackerAccountRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(TrackerAccountRoutes.class);

  /** Where the OAuth trackers send the browser back: {@code /api/trackers/<id>/callback}. */
  public static final String CALLBACK_MOUNT = "/api/trackers";

  /** The longest search text sent to a tracker. */
  static final int MAX_QUERY = 200;

  private final Vertx vertx;
  private final Map<String, TrackerClient> clients;
  private final TrackerStore store;
  private final TrackerAccounts accounts;
  private final OAuthSignIns signIns;
  private final SessionStore sessions;
  private final String publicUrl;
  private final TrackerLinkReplies replies;
  private final InstantSource clock;

  /**
   * @param signIns the OAuth sign-ins; null only with no tracker enabled
   * @param sessions where the callback looks up a session that came with it (its user must be the one who started)
   * @param publicUrl the reader's public address, before the callback path (docs/trackers.md)
   */
  public TrackerAccountRoutes(Vertx vertx, Map<String, TrackerClient> clients, TrackerStore store,
      TrackerAccounts accounts, OAuthSignIns signIns, SessionStore sessions, String publicUrl,
      TrackerLinkReplies replies, InstantSource clock) {
    this.vertx = vertx;
    this.clients = clients;
    this.store = store;
    this.accounts = accounts;
    this.signIns = signIns;
    this.sessions = sessions;
    this.publicUrl = publicUrl;
    this.replies = replies;
    this.clock = clock;
  }

  /** The routes, mounted at {@code /api/me/trackers}. */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/").handler(this::handleList);
    router.get("/links").handler(this::handleLinks);
    router.post("/:tracker/authorize").handler(this::handleAuthorize);
    router.post("/:tracker/login").handler(this::handleLogin);
    router.delete("/:tracker").handler(this::handleSignOut);
    router.get("/:tracker/search").handler(this::handleSearch);
    return router;
  }

  /**
   * The OAuth callback, mounted at {@link #CALLBACK_MOUNT}: public, because the session cookie (SameSite=Strict) does
   * not come with a navigation from the tracker's site; the signed sign-in cookie (SameSite=Lax) names the user instead.
   */
  public Router callbackRouter() {
    Router router = Router.router(vertx);
    AccessGuard.publicRoute(router.get("/:tracker/callback")).handler(this::handleCallback);
    return router;
  }

  /** The callback address registered with a tracker. */
  public String redirectUri(String tracker) {
    return publicUrl + CALLBACK_MOUNT + "/" + tracker + "/callback";
  }

  /**
   * The sign-in cookie of a tracker, or its removal: only that tracker's callback path gets it back, so that two
   * sign-ins on two trackers do not undo each other.
   */
  private Cookie signInCookie(RoutingContext ctx, String tracker, String value, long maxAgeSeconds) {
    // Lax, not Strict: the tracker's redirect back is a cross-site top-level navigation, which Lax lets through.
    return Cookie.cookie(OAuthSignIns.COOKIE, value).setPath(URI.create(redirectUri(tracker)).getRawPath())
        .setHttpOnly(true).setSameSite(CookieSameSite.LAX).setSecure(SessionStart.overHttps(ctx))
        .setMaxAge(maxAgeSeconds);
  }

  private Optional<TrackerClient> client(RoutingContext ctx) {
    TrackerClient client = clients.get(ctx.pathParam("tracker"));
    if (client == null) {
      ApiReplies.error(ctx, 404, "not_found", "no tracker '" + ctx.pathParam("tracker") + "' is enabled here");
    }
    return Optional.ofNullable(client);
  }

  private void handleList(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    ApiReplies.blocking(vertx, ctx, () -> {
      Map<String, TrackerAccount> byTracker = new HashMap<>();
      for (TrackerAccount account : store.accounts(session.userId())) {
        byTracker.put(account.tracker(), account);
      }
      Map<String, Integer> pending = new HashMap<>();
      for (TrackerLink link : store.links(session.userId())) {
        if (store.pendingUpdate(session.userId(), link.tracker(), link.series()).isPresent()) {
          pending.merge(link.tracker(), 1, Integer::sum);
        }
      }
      JsonArray list = new JsonArray();
      for (TrackerClient client : clients.values()) {
        TrackerAccount account = byTracker.get(client.id());
        list.add(new JsonObject().put("id", client.id()).put("name", client.name())
            .put("signIn", client.signsInWithPassword() ? "password" : "oauth")
            .put("signedIn", account != null && !account.needsSignIn())
            .put("account", account == null ? null : account.accountName())
            .put("needsSignIn", account != null && account.needsSignIn())
            .put("problem", account == null ? "" : account.problem())
            .put("pending", pending.getOrDefault(client.id(), 0)));
      }
      return new JsonObject().put("trackers", list);
    }, ctx::json);
  }

  private void handleLinks(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    ApiReplies.blocking(vertx, ctx, () -> {
      JsonArray list = new JsonArray();
      for (TrackerLink link : store.links(session.userId())) {
        TrackerClient client = clients.get(link.tracker());
        if (client != null) {
          list.add(replies.listed(link, client));
        }
      }
      return new JsonObject().put("links", list);
    }, ctx::json);
  }

  private void handleAuthorize(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    Optional<TrackerClient> client = client(ctx);
    if (client.isEmpty()) {
      return;
    }
    if (client.get().signsInWithPassword()) {
      ApiReplies.error(ctx, 409, "conflict", client.get().name() + " signs in with a user name and password: POST "
          + "/api/me/trackers/" + client.get().id() + "/login");
      return;
    }
    OAuthSignIns.Started started = signIns.start(session.userId(), client.get().id());
    ctx.response().addCookie(signInCookie(ctx, client.get().id(), started.cookie(),
        OAuthSignIns.LIFETIME.toSeconds()));
    ctx.json(new JsonObject().put("url", client.get().authorizeUrl(started.state(), started.verifier(),
        redirectUri(client.get().id()))));
  }

  private void handleCallback(RoutingContext ctx) {
    String tracker = ctx.pathParam("tracker");
    TrackerClient client = clients.get(tracker);
    if (client == null || client.signsInWithPassword()) {
      ApiReplies.error(ctx, 404, "not_found", "no OAuth tracker '" + tracker + "' is enabled here");
      return;
    }
    Cookie cookie = ctx.request().getCookie(OAuthSignIns.COOKIE);
    // Used once, whatever the answer.
    ctx.response().addCookie(signInCookie(ctx, tracker, "", 0));
    Optional<OAuthSignIns.Pending> pending = signIns.finish(cookie == null ? null : cookie.getValue(),
        ctx.request().getParam("state"), tracker);
    if (pending.isEmpty()) {
      LOG.warn("[TRACKERS] {} sign-in callback refused: its sign-in cookie is missing, altered or not for this state, "
          + "was used, or is older than {} minutes", client.name(), OAuthSignIns.LIFETIME.toMinutes());
      back(ctx, tracker, "This " + client.name() + " sign-in was not started here, was already used or took too "
          + "long; start it again from your profile.", 400);
      return;
    }
    Cookie session = ctx.request().getCookie(Sessions.COOKIE);
    if (session == null || session.getValue().isEmpty()) {
      finish(ctx, client, pending.get());
      return;
    }
    vertx.executeBlocking(() -> sessions.session(Sessions.hash(session.getValue()), clock.instant()))
        .onFailure(e -> ApiReplies.failure(ctx, e))
        .onSuccess(current -> {
          if (current.isPresent() && current.get().userId() != pending.get().userId()) {
            LOG.warn("[TRACKERS] {} sign-in callback refused: started by user {}, came back with the session of user "
                + "{}", client.name(), pending.get().userId(), current.get().userId());
            back(ctx, tracker, "This " + client.name() + " sign-in was started by another account; log in as that "
                + "account or start it again from your profile.", 400);
            return;
          }
          finish(ctx, client, pending.get());
        });
  }

  /**
   * The rest of a callback whose sign-in cookie holds: the tracker's refusal goes back to the profile page, a code is
   * exchanged for the user who started. A session that comes with the callback (an arrival from this site) was checked
   * to be that user's; without one (the tracker's cross-site redirect under SameSite=Strict) the signed cookie names
   * the user.
   */
  private void finish(RoutingContext ctx, TrackerClient client, OAuthSignIns.Pending pending) {
    String tracker = client.id();
    String denied = ctx.request().getParam("error");
    String code = ctx.request().getParam("code");
    if (denied != null || code == null || code.isEmpty()) {
      back(ctx, tracker, client.name() + " did not sign you in" + (denied == null ? "" : " (" + denied.replaceAll(
          "[^a-z_]", "") + ")") + ".", 303);
      return;
    }
    long userId = pending.userId();
    client.exchangeCode(code, pending.verifier(), redirectUri(tracker))
        .compose(tokens -> vertx.executeBlocking(() -> accounts.signedIn(userId, tracker, tokens)))
        .onSuccess(account -> {
          LOG.info("[TRACKERS] user {} signed in to {} as '{}'", userId, client.name(), account.accountName());
          ctx.response().setStatusCode(303).putHeader("Location", "/profile.html?tracker=" + tracker + "&signedIn=1")
              .end();
        })
        .onFailure(e -> {
          LOG.warn("[TRACKERS] user {} sign-in to {} failed: {}", userId, client.name(), e.getMessage());
          back(ctx, tracker, "Signing in to " + client.name() + " failed: " + e.getMessage(), 303);
        });
  }

  /** Sends the browser back to the profile page with what went wrong, or answers {@code status} itself. */
  private static void back(RoutingContext ctx, String tracker, String message, int status) {
    if (status != 303) {
      ctx.response().setStatusCode(status).putHeader("Content-Type", "text/html; charset=utf-8")
          .end("<!doctype html><meta charset=utf-8><title>Sign-in refused</title><p>" + message.replace("&", "&amp;")
              .replace("<", "&lt;") + "</p><p><a href=\"/profile.html\">Back to your profile</a></p>");
      return;
    }
    ctx.response().setStatusCode(303).putHeader("Location", "/profile.html?tracker=" + tracker + "&error="
        + URLEncoder.encode(message, StandardCharsets.UTF_8)).end();
  }

  private void handleLogin(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    Optional<TrackerClient> client = client(ctx);
    if (client.isEmpty()) {
      return;
    }
    if (!client.get().signsInWithPassword()) {
      ApiReplies.error(ctx, 409, "conflict", client.get().name() + " signs in on its own site: POST /api/me/trackers/"
          + client.get().id() + "/authorize");
      return;
    }
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"username\": \"...\", \"password\": \"...\"}");
    if (body.isEmpty()) {
      return;
    }
    if (!(body.get().getValue("username") instanceof String username) || username.isBlank()
        || username.length() > 200 || !(body.get().getValue("password") instanceof String password)
        || password.isEmpty() || password.length() > 1000) {
      ApiReplies.error(ctx, 400, "bad_request", "send {\"username\": ..., \"password\": ...}, both given");
      return;
    }
    String tracker = client.get().id();
    client.get().logIn(username.trim(), new Secret(password))
        .compose(tokens -> vertx.executeBlocking(() -> accounts.signedIn(session.userId(), tracker, tokens)))
        .onSuccess(account -> {
          LOG.info("[TRACKERS] '{}' signed in to {} as '{}'", session.username(), client.get().name(),
              account.accountName());
          ctx.json(new JsonObject().put("id", tracker).put("account", account.accountName()));
        })
        .onFailure(e -> failed(ctx, e, "sign in"));
  }

  private void handleSignOut(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    Optional<TrackerClient> client = client(ctx);
    if (client.isEmpty()) {
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> store.deleteAccount(session.userId(), client.get().id()), removed -> {
      if (!removed) {
        ApiReplies.error(ctx, 404, "not_found", "you are not signed in to " + client.get().name());
        return;
      }
      LOG.info("[TRACKERS] '{}' signed out of {}", session.username(), client.get().name());
      ctx.response().setStatusCode(204).end();
    });
  }

  private void handleSearch(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    Optional<TrackerClient> client = client(ctx);
    if (client.isEmpty()) {
      return;
    }
    String query = ctx.request().getParam("q");
    if (query == null || query.isBlank() || query.length() > MAX_QUERY) {
      ApiReplies.error(ctx, 400, "bad_request", "search with ?q= and 1 to " + MAX_QUERY + " characters");
      return;
    }
    accounts.current(vertx, session.userId(), client.get())
        .compose(tokens -> tokens.isEmpty()
            ? Future.failedFuture(new TrackerFailure(client.get().id(), TrackerFailure.Kind.SIGN_IN_AGAIN,
                "sign in to " + client.get().name() + " first"))
            : client.get().search(tokens.get(), query.trim()))
        .onSuccess(found -> {
          JsonArray results = new JsonArray();
          for (TrackerCandidate candidate : found) {
            results.add(TrackerLinkReplies.candidate(candidate));
          }
          ctx.json(new JsonObject().put("results", results));
        })
        .onFailure(e -> failed(ctx, e, "search"));
  }

  /** A tracker's failure as an answer: the user's sign-in refused, the tracker unreachable, or the request refused. */
  static void failed(RoutingContext ctx, Throwable e, String what) {
    if (!(e instanceof TrackerFailure failure)) {
      ApiReplies.failure(ctx, e);
      return;
    }
    switch (failure.kind()) {
      case SIGN_IN_AGAIN -> ApiReplies.error(ctx, 422, "sign_in_refused", failure.getMessage());
      case REFUSED -> ApiReplies.error(ctx, 400, "tracker_refused", failure.getMessage());
      case RATE_LIMITED, UNAVAILABLE -> ApiReplies.error(ctx, 503, "tracker_unavailable",
          failure.getMessage() + "; try again later");
      default -> ApiReplies.error(ctx, 502, "tracker_failed", "could not " + what + ": " + failure.getMessage());
    }
  }
}
