package io.mangacircus.reader.accounts;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How users may sign in, as the login page asks ({@code GET /api/login/options}): password login on or off, and the
 * sign-in provider's button if one is configured; and where a logout sends the browser next (the provider's logout).
 *
 * @param passwordLogin whether {@code POST /api/login} accepts passwords
 * @param provider the provider's button ({@code label}, {@code available}, {@code start}); null when none is configured
 * @param afterLogout where the browser goes after a logout, if anywhere
 */
public record LoginOptions(boolean passwordLogin, Supplier<JsonObject> provider,
    Function<RoutingContext, Optional<String>> afterLogout) {

  /** Password login only, nothing after a logout. */
  public static final LoginOptions PASSWORD_ONLY = new LoginOptions(true, () -> null, ctx -> Optional.empty());

  /** The answer of {@code GET /api/login/options}. */
  public JsonObject describe() {
    return new JsonObject().put("passwordLogin", passwordLogin).put("provider", provider.get());
  }
}
