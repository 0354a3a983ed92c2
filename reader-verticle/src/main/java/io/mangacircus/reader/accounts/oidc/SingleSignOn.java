package io.mangacircus.reader.accounts.oidc;

import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.accounts.LoginOptions;
import io.mangacircus.reader.accounts.SessionStart;
import io.mangacircus.reader.http.TrustedProxies;
import io.mangacircus.reader.store.UserStore;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Single sign-on as the reader wires it ({@code reader.oidc}): when configured, the provider (discovered in the
 * background), its routes and the login page's button; when not, password login alone.
 */
public final class SingleSignOn {

  /** The first wait before discovery is tried again, doubling up to {@link #MAX_RETRY}. */
  static final Duration FIRST_RETRY = Duration.ofSeconds(2);

  /** The longest wait between two discovery attempts. */
  static final Duration MAX_RETRY = Duration.ofMinutes(5);

  private final OidcProvider provider;

  private SingleSignOn(OidcProvider provider) {
    this.provider = provider;
  }

  /**
   * Single sign-on as {@code config} sets it up (null: off), its client secret read now from {@code environment} or
   * the file named. Blocking (the file): call it on a worker.
   *
   * @throws IllegalArgumentException naming the key when the secret cannot be read
   */
  public static SingleSignOn create(Vertx vertx, OidcConfig config, Map<String, String> environment) {
    if (config == null) {
      return new SingleSignOn(null);
    }
    return new SingleSignOn(new OidcProvider(vertx, config, config.clientSecret(environment), FIRST_RETRY,
        MAX_RETRY));
  }

  /** Starts discovering the provider; the reader does not wait for it. */
  public void start() {
    if (provider != null) {
      provider.start();
    }
  }

  /**
   * Mounts the sign-in routes on {@code router} when configured; returns how users may sign in, for the account
   * routes.
   *
   * @param accessChanged told when a sign-in changed what an account may see
   */
  public LoginOptions mount(Vertx vertx, Router router, UserStore users, SessionStart sessionStart,
      TrustedProxies proxies, AccessGuard guard, BiConsumer<String, UserAccess> accessChanged, InstantSource clock) {
    if (provider == null) {
      return LoginOptions.PASSWORD_ONLY;
    }
    OidcRoutes routes = new OidcRoutes(vertx, provider, new SignInAccounts(users,
        provider.config().linkExistingAccounts(), clock), sessionStart, proxies, guard::clientAddress,
        accessChanged, guard::forgetAll, clock);
    router.route(OidcRoutes.MOUNT + "*").subRouter(routes.router());
    return new LoginOptions(provider.config().passwordLogin(), routes::button, routes::afterLogout);
  }

  /** Whether a provider is configured. */
  public boolean configured() {
    return provider != null;
  }

  /** The provider, when configured. */
  public Optional<OidcProvider> provider() {
    return Optional.ofNullable(provider);
  }

  /** Stops trying to discover the provider. */
  public void stop() {
    if (provider != null) {
      provider.stop();
    }
  }
}
