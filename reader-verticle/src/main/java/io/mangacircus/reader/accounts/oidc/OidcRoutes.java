package io.mangacircus.reader.accounts.oidc;

import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.accounts.SessionStart;
import io.mangacircus.reader.accounts.Sessions;
import io.mangacircus.reader.http.TrustedProxies;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.oauth2.OAuth2Auth;
import io.vertx.ext.auth.oauth2.OAuth2AuthorizationURL;
import io.vertx.ext.auth.oauth2.OAuth2FlowType;
import io.vertx.ext.auth.oauth2.Oauth2Credentials;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /auth/oidc/login} and {@code GET /auth/oidc/callback}: sign-in with the configured OpenID Connect provider
 * (authorization code with PKCE S256, state and nonce), ending in the same session cookie a password login sets. Every
 * refusal sends the browser to {@code /login.html?error=<code>} and is logged at INFO without any token.
 */
public final class OidcRoutes {

  /** Where the routes are mounted; the provider sends the browser back to {@code <this>/callback}. */
  public static final String MOUNT = "/auth/oidc";

  private static final Logger LOG = LoggerFactory.getLogger(OidcRoutes.class);

  private final Vertx vertx;
  private final OidcProvider provider;
  private final IdTokenCheck idTokens;
  private final ClaimMapping claims;
  private final UserInfoClaims userInfo;
  private final SignInAccounts accounts;
  private final SessionStart sessionStart;
  private final TrustedProxies proxies;
  private final Function<RoutingContext, String> clientAddress;
  private final BiConsumer<String, UserAccess> accessChanged;
  private final Runnable rolesChanged;
  private final InstantSource clock;

  /**
   * @param clientAddress the client's address as the login throttle sees it (for the log)
   * @param accessChanged told when a sign-in changed what an account may see (the in-memory view follows)
   * @param rolesChanged told when a sign-in changed an account's role (remembered sessions are read again)
   */
  public OidcRoutes(Vertx vertx, OidcProvider provider, SignInAccounts accounts, SessionStart sessionStart,
      TrustedProxies proxies, Function<RoutingContext, String> clientAddress,
      BiConsumer<String, UserAccess> accessChanged, Runnable rolesChanged, InstantSource clock) {
    this.vertx = vertx;
    this.provider = provider;
    this.idTokens = new IdTokenCheck(provider.config().issuer(), provider.config().clientId(),
        IdTokenCheck.LEEWAY, clock);
    this.claims = new ClaimMapping(provider.config());
    this.userInfo = new UserInfoClaims(provider.config());
    this.accounts = accounts;
    this.sessionStart = sessionStart;
    this.proxies = proxies;
    this.clientAddress = clientAddress;
    this.accessChanged = accessChanged;
    this.rolesChanged = rolesChanged;
    this.clock = clock;
  }

  /** The routes, mounted at {@link #MOUNT}; they need no session. */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/login").handler(this::handleLogin);
    router.get("/callback").handler(this::handleCallback);
    return router;
  }

  /** The login page's button: its label, whether the provider can be reached, and where it starts. */
  public JsonObject button() {
    return new JsonObject().put("label", provider.config().buttonLabel())
        .put("available", provider.auth().isPresent()).put("start", MOUNT + "/login");
  }

  /**
   * Where the browser goes after our logout: the provider's {@code end_session_endpoint} with our client id and the
   * login page to come back to, when the provider has one.
   */
  public Optional<String> afterLogout(RoutingContext ctx) {
    return provider.endSessionEndpoint().map(endpoint -> endpoint + (endpoint.contains("?") ? "&" : "?")
        + "client_id=" + encode(provider.config().clientId()) + "&post_logout_redirect_uri="
        + encode(origin(ctx) + "/login.html"));
  }

  private void handleLogin(RoutingContext ctx) {
    Optional<OAuth2Auth> auth = provider.auth();
    if (auth.isEmpty()) {
      refuse(ctx, "provider_unavailable", "the provider " + provider.config().issuer() + " has not answered its "
          + "discovery yet");
      return;
    }
    String returnTo = sameOriginPath(ctx.request().getParam("return"));
    PendingSignIn pending = PendingSignIn.start(returnTo, origin(ctx) + MOUNT + "/callback", clock.instant());
    String url = auth.get().authorizeURL(new OAuth2AuthorizationURL().setRedirectUri(pending.redirectUri())
        .setState(pending.state()).setCodeChallenge(pending.challenge()).setCodeChallengeMethod("S256")
        .setScopes(provider.config().scopes()).putAdditionalParameter("nonce", pending.nonce()));
    // Lax, not Strict: the provider's redirect back is a cross-site top-level navigation, which Lax lets through.
    ctx.response().addCookie(Cookie.cookie(PendingSignIn.COOKIE, pending.cookieValue()).setPath(MOUNT)
        .setHttpOnly(true).setSameSite(CookieSameSite.LAX).setSecure(https(ctx))
        .setMaxAge(PendingSignIn.LIFETIME.toSeconds()));
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
    ctx.redirect(url);
  }

  private void handleCallback(RoutingContext ctx) {
    Cookie cookie = ctx.request().getCookie(PendingSignIn.COOKIE);
    // Used once, whatever happens next.
    ctx.response().addCookie(Cookie.cookie(PendingSignIn.COOKIE, "").setPath(MOUNT).setHttpOnly(true)
        .setSameSite(CookieSameSite.LAX).setSecure(https(ctx)).setMaxAge(0));
    String error = ctx.request().getParam("error");
    if (error != null) {
      refuse(ctx, "provider_refused", "the provider answered " + printable(error) + ": "
          + printable(ctx.request().getParam("error_description")));
      return;
    }
    Optional<PendingSignIn> pending = PendingSignIn.fromCookie(cookie == null ? null : cookie.getValue());
    if (pending.isEmpty()) {
      refuse(ctx, "no_pending_sign_in", "no sign-in was started from this browser (its cookie is missing or "
          + "expired)");
      return;
    }
    if (!Sessions.same(pending.get().state(), ctx.request().getParam("state"))) {
      refuse(ctx, "state_mismatch", "the state the provider sent back is not this sign-in's");
      return;
    }
    if (pending.get().expired(clock.instant())) {
      refuse(ctx, "sign_in_expired", "the sign-in took longer than " + PendingSignIn.LIFETIME.toMinutes() + " min");
      return;
    }
    String code = ctx.request().getParam("code");
    Optional<OAuth2Auth> auth = provider.auth();
    if (code == null || code.isEmpty() || auth.isEmpty()) {
      refuse(ctx, code == null || code.isEmpty() ? "no_code" : "provider_unavailable",
          code == null || code.isEmpty() ? "the provider sent no code" : "the provider is not discovered");
      return;
    }
    auth.get().authenticate(new Oauth2Credentials().setFlow(OAuth2FlowType.AUTH_CODE).setCode(code)
        .setRedirectUri(pending.get().redirectUri()).setCodeVerifier(pending.get().verifier()))
        .onComplete(ar -> {
          if (ar.failed()) {
            refuse(ctx, ar.cause().getMessage() != null && ar.cause().getMessage().contains("expired") ? "expired"
                : "token_refused", "the code exchange failed: " + printable(ar.cause().getMessage()));
            return;
          }
          signIn(ctx, auth.get(), ar.result(), pending.get());
        });
  }

  private void signIn(RoutingContext ctx, OAuth2Auth auth, io.vertx.ext.auth.User tokens, PendingSignIn pending) {
    JsonObject verified = tokens.attributes().getJsonObject("idToken");
    if (verified == null) {
      // The library drops an ID token whose signature, issuer or audience it rejects: name the reason for the log.
      refuse(ctx, unverifiedReason(tokens.principal().getString("id_token"), pending));
      return;
    }
    Map<String, Object> idClaims = plain(verified);
    IdTokenCheck.Outcome checked = idTokens.check(idClaims, pending.nonce());
    if (checked instanceof IdTokenCheck.Refused refused) {
      refuse(ctx, refused.code(), refused.reason());
      return;
    }
    String subject = ((IdTokenCheck.Accepted) checked).subject();
    List<String> missing = userInfo.missing(idClaims);
    if (missing.isEmpty() || !provider.hasUserInfo()) {
      signIn(ctx, idClaims, subject, pending);
      return;
    }
    auth.userInfo(tokens).onComplete(ar -> {
      if (ar.failed()) {
        refuse(ctx, "userinfo_failed", "the ID token lacks " + missing + " and the provider's userinfo answer could "
            + "not be read: " + printable(ar.cause().getMessage()));
        return;
      }
      UserInfoClaims.Outcome completed = userInfo.complete(idClaims, plain(ar.result()), subject);
      if (completed instanceof UserInfoClaims.Refused refused) {
        refuse(ctx, refused.code(), refused.reason());
        return;
      }
      signIn(ctx, ((UserInfoClaims.Completed) completed).claims(), subject, pending);
    });
  }

  /** Signs in (or creates) the account the checked claims map to. */
  private void signIn(RoutingContext ctx, Map<String, Object> idClaims, String subject, PendingSignIn pending) {
    List<String> problems = new ArrayList<>();
    Optional<ClaimMapping.Mapped> mapped = claims.map(idClaims, problems);
    problems.forEach(problem -> LOG.info("[SSO] sign-in of subject {}: claim {}", printable(subject), problem));
    if (mapped.isEmpty()) {
      refuse(ctx, "no_username", "the " + provider.config().usernameClaim() + " claim (ID token"
          + (provider.hasUserInfo() ? " or userinfo" : "") + ") holds no usable user name (set "
          + "reader.oidc.usernameClaim, or have the provider send it)");
      return;
    }
    String issuer = String.valueOf(idClaims.get("iss"));
    vertx.executeBlocking(() -> {
      SignInAccounts.Outcome outcome = accounts.signIn(issuer, subject, mapped.get());
      return new Done(outcome, outcome instanceof SignInAccounts.SignedIn signedIn
          ? sessionStart.create(signedIn.user().id()) : null);
    }).onComplete(ar -> {
      if (ar.failed()) {
        LOG.error("[SSO] sign-in of '{}' failed on the database: {}", mapped.get().username(), ar.cause().toString());
        redirect(ctx, "/login.html?error=internal_error");
        return;
      }
      if (ar.result().outcome() instanceof SignInAccounts.Refused refused) {
        refuse(ctx, refused.code(), refused.reason());
        return;
      }
      SignInAccounts.SignedIn signedIn = (SignInAccounts.SignedIn) ar.result().outcome();
      signedIn.accessChanged().ifPresent(access -> accessChanged.accept(signedIn.user().username(), access));
      if (signedIn.roleChanged()) {
        rolesChanged.run();
      }
      sessionStart.setCookie(ctx, ar.result().session());
      LOG.info("[SSO] '{}' ({}) signed in with {} from {}{}", signedIn.user().username(), signedIn.user().role(),
          issuer, clientAddress.apply(ctx), signedIn.created() ? "; account created" : "");
      redirect(ctx, pending.returnTo());
    });
  }

  /** A sign-in's outcome, with its new session when it succeeded. */
  private record Done(SignInAccounts.Outcome outcome, SessionStart.Started session) {
  }

  /** Why the library did not verify the ID token, from its unverified claims (only for the code and the log). */
  private Refusal unverifiedReason(String idToken, PendingSignIn pending) {
    String[] parts = idToken == null ? new String[0] : idToken.split("\\.");
    if (parts.length == 3) {
      try {
        Map<String, Object> unverified = plain(new JsonObject(new String(
            java.util.Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)));
        if (idTokens.check(unverified, pending.nonce()) instanceof IdTokenCheck.Refused refused) {
          return new Refusal(refused.code(), refused.reason());
        }
      } catch (RuntimeException e) {
        return new Refusal("id_token_unverified", "the ID token is not a readable JWT");
      }
    }
    return new Refusal("id_token_unverified", idToken == null ? "the provider sent no ID token (is openid among the "
        + "scopes?)" : "the ID token's signature does not verify against the provider's keys");
  }

  private record Refusal(String code, String reason) {
  }

  private void refuse(RoutingContext ctx, Refusal refusal) {
    refuse(ctx, refusal.code(), refusal.reason());
  }

  private void refuse(RoutingContext ctx, String code, String reason) {
    LOG.info("[SSO] sign-in from {} refused ({}): {}", clientAddress.apply(ctx), code, reason);
    redirect(ctx, "/login.html?error=" + code);
  }

  private static void redirect(RoutingContext ctx, String location) {
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
    ctx.redirect(location);
  }

  /** Claims as plain maps and lists, whatever Vert.x wrapped them in. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> plain(JsonObject claims) {
    return (Map<String, Object>) Json.decodeValue(claims.encode(), Map.class);
  }

  /**
   * A path on this site to return to: it starts with one {@code /}, holds no backslash or control character and is not
   * the login page; anything else is {@code /}.
   */
  static String sameOriginPath(String raw) {
    if (raw == null || raw.length() > 2000 || !raw.startsWith("/") || raw.startsWith("//") || raw.contains("\\")
        || raw.chars().anyMatch(c -> c < 0x20 || c == 0x7f) || raw.startsWith("/login.html")
        || raw.startsWith(MOUNT)) {
      return "/";
    }
    return raw;
  }

  /** {@code scheme://host[:port]} as the browser reached us. */
  private String origin(RoutingContext ctx) {
    String host = ctx.request().getHeader(HttpHeaders.HOST);
    if (host == null && ctx.request().authority() != null) {
      host = ctx.request().authority().toString();
    }
    return (https(ctx) ? "https" : "http") + "://" + host;
  }

  /** Over https: directly, or through a trusted proxy that says so. */
  private boolean https(RoutingContext ctx) {
    if (ctx.request().isSSL()) {
      return true;
    }
    return ctx.request().remoteAddress() != null && proxies.trusts(ctx.request().remoteAddress().hostAddress())
        && "https".equalsIgnoreCase(ctx.request().getHeader("X-Forwarded-Proto"));
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** A provider's text for the log: printable characters only, at most 200. */
  private static String printable(String text) {
    if (text == null) {
      return "(none)";
    }
    String clean = text.replaceAll("[\\p{Cntrl}]", "?");
    return clean.length() > 200 ? clean.substring(0, 200) + "…" : clean;
  }
}
