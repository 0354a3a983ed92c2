package io.mangacircus.reader.accounts.oidc;

import io.vertx.core.Vertx;
import io.vertx.ext.auth.oauth2.OAuth2Auth;
import io.vertx.ext.auth.oauth2.OAuth2Options;
import io.vertx.ext.auth.oauth2.providers.OpenIDConnectAuth;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured provider as its discovery document describes it, read at start and again, with growing waits, while
 * the provider cannot be reached: the reader starts anyway, and sign-in with the provider is unavailable (password
 * login and app passwords work) until the provider answers.
 */
public final class OidcProvider {

  private static final Logger LOG = LoggerFactory.getLogger(OidcProvider.class);

  private final Vertx vertx;
  private final OidcConfig config;
  private final Optional<String> clientSecret;
  private final Duration firstRetry;
  private final Duration maxRetry;
  private volatile OAuth2Auth auth;
  private volatile String endSessionEndpoint;
  private volatile boolean userInfoEndpoint;
  private volatile boolean stopped;
  private long timer = -1;

  /**
   * @param clientSecret the client secret ({@link OidcConfig#clientSecret}); empty for a public client
   * @param firstRetry the wait before discovery is tried again after a first failure; it doubles up to
   *     {@code maxRetry}
   */
  public OidcProvider(Vertx vertx, OidcConfig config, Optional<String> clientSecret, Duration firstRetry,
      Duration maxRetry) {
    this.vertx = vertx;
    this.config = config;
    this.clientSecret = clientSecret;
    this.firstRetry = firstRetry;
    this.maxRetry = maxRetry;
  }

  /** Starts reading the discovery document; never fails (a failure is logged and tried again). */
  public void start() {
    discover(firstRetry);
  }

  private void discover(Duration nextWait) {
    if (stopped) {
      return;
    }
    // The library's own expiry check (of the token answer) allows the clock difference the reader's checks allow.
    OAuth2Options options = new OAuth2Options().setSite(config.issuer()).setClientId(config.clientId())
        .setJWTOptions(new io.vertx.ext.auth.JWTOptions().setLeeway((int) IdTokenCheck.LEEWAY.toSeconds()));
    clientSecret.ifPresent(options::setClientSecret);
    OpenIDConnectAuth.discover(vertx, options).onComplete(ar -> {
      if (stopped) {
        return;
      }
      if (ar.succeeded()) {
        OAuth2Auth discovered = ar.result();
        // A provider that rotates its signing keys: a token signed by a key not yet seen reloads the key set.
        discovered.missingKeyHandler(kid -> discovered.jWKSet().onFailure(e -> LOG.warn("[SSO] cannot reload the "
            + "signing keys of {} for key id {}: {}", config.issuer(), kid, e.getMessage())));
        endSessionEndpoint = options.getLogoutPath();
        userInfoEndpoint = options.getUserInfoPath() != null;
        auth = discovered;
        LOG.info("[SSO] provider {} ready (client {}{})", config.issuer(), config.clientId(),
            endSessionEndpoint == null ? "" : ", logout at the provider too");
        return;
      }
      LOG.warn("[SSO] provider {} cannot be reached for discovery ({}); sign-in with it is unavailable, password "
          + "login and app passwords still work; trying again in {} s", config.issuer(), ar.cause().getMessage(),
          nextWait.toSeconds());
      long wait = Math.max(1, nextWait.toMillis());
      synchronized (this) {
        timer = vertx.setTimer(wait, id -> discover(min(nextWait.multipliedBy(2), maxRetry)));
      }
    });
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** The provider once discovery succeeded. */
  public Optional<OAuth2Auth> auth() {
    return Optional.ofNullable(auth);
  }

  /** The provider's {@code end_session_endpoint}, when discovery found one. */
  public Optional<String> endSessionEndpoint() {
    return auth == null ? Optional.empty() : Optional.ofNullable(endSessionEndpoint);
  }

  /** Whether discovery found a {@code userinfo_endpoint}, where claims the ID token lacks may be asked. */
  public boolean hasUserInfo() {
    return auth != null && userInfoEndpoint;
  }

  /** The configuration it was made from. */
  public OidcConfig config() {
    return config;
  }

  /** Stops trying again. */
  public synchronized void stop() {
    stopped = true;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }
}
