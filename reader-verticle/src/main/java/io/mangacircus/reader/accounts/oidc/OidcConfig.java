package io.mangacircus.reader.accounts.oidc;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.support.config.ConfigSecrets;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code reader.oidc} (docs/sso.md): sign-in with an OpenID Connect provider (Authelia, Authentik, Keycloak, ...).
 * Absent: off. The client secret is never in the config itself, only the name of where to read it.
 *
 * @param issuer the provider's issuer URL exactly as its discovery document states it (discovery is read from
 *     {@code <issuer>/.well-known/openid-configuration}); required
 * @param clientId the client id registered with the provider for this reader; required
 * @param clientSecretEnv name of the environment variable holding the client secret; at most one of this and
 *     {@code clientSecretFile}; neither: a public client (PKCE only)
 * @param clientSecretFile path of a file holding the client secret (a trailing newline is ignored)
 * @param scopes the scopes asked for; default {@code ["openid", "profile", "email"]}; must hold {@code openid}
 * @param usernameClaim the ID token claim that names the account here; default {@code preferred_username}
 * @param adminClaim the claim (a string or a list of strings) that makes an account an admin when it holds one of
 *     {@code adminValues}; empty (default): roles are managed here, not by the provider
 * @param adminValues the values of {@code adminClaim} that mean admin (such as {@code ["mangacircus-admins"]})
 * @param librariesClaim the claim listing the libraries an account may see ({@code "all"} or library names); empty
 *     (default): managed here
 * @param ageLimitClaim the claim holding an account's age limit ({@code none}, {@code all}, {@code 9} ...
 *     {@code 18}); empty (default): managed here
 * @param linkExistingAccounts whether a first sign-in whose user name is already a local account signs in as that
 *     account (and links it); default false: refused, since whoever controls the provider's user names could otherwise
 *     take over local accounts
 * @param buttonLabel the login page's button text; default {@code Sign in with single sign-on}
 * @param passwordLogin whether password login ({@code POST /api/login}) stays on; default true. App passwords (reading
 *     apps, KOReader) work either way
 */
public record OidcConfig(String issuer, String clientId, @JsonProperty(required = false) String clientSecretEnv,
    @JsonProperty(required = false) String clientSecretFile, @JsonProperty(required = false) List<String> scopes,
    @JsonProperty(required = false) String usernameClaim, @JsonProperty(required = false) String adminClaim,
    @JsonProperty(required = false) List<String> adminValues,
    @JsonProperty(required = false) String librariesClaim, @JsonProperty(required = false) String ageLimitClaim,
    @JsonProperty(required = false) Boolean linkExistingAccounts,
    @JsonProperty(required = false) String buttonLabel, @JsonProperty(required = false) Boolean passwordLogin) {

  /** The scopes asked for when none are configured. */
  public static final List<String> DEFAULT_SCOPES = List.of("openid", "profile", "email");

  public OidcConfig {
    issuer = issuer == null ? "" : issuer.trim().replaceAll("/+$", "");
    clientId = clientId == null ? "" : clientId.trim();
    clientSecretEnv = clientSecretEnv == null ? "" : clientSecretEnv.trim();
    clientSecretFile = clientSecretFile == null ? "" : clientSecretFile.trim();
    scopes = scopes == null ? DEFAULT_SCOPES : List.copyOf(scopes);
    usernameClaim = usernameClaim == null || usernameClaim.isBlank() ? "preferred_username" : usernameClaim.trim();
    adminClaim = adminClaim == null ? "" : adminClaim.trim();
    adminValues = adminValues == null ? List.of() : List.copyOf(adminValues);
    librariesClaim = librariesClaim == null ? "" : librariesClaim.trim();
    ageLimitClaim = ageLimitClaim == null ? "" : ageLimitClaim.trim();
    linkExistingAccounts = linkExistingAccounts != null && linkExistingAccounts;
    buttonLabel = buttonLabel == null || buttonLabel.isBlank() ? "Sign in with single sign-on" : buttonLabel.trim();
    passwordLogin = passwordLogin == null || passwordLogin;
  }

  /** What is wrong with this section, as {@code key: reason} under {@code reader.oidc}; empty when nothing is. */
  public Optional<String> problem() {
    if (issuer.isEmpty()) {
      return Optional.of("issuer: the provider's issuer URL is needed (such as https://auth.example.org)");
    }
    if (!httpUrl(issuer)) {
      return Optional.of("issuer: '" + issuer + "' is not an http or https URL without query or fragment");
    }
    if (clientId.isEmpty()) {
      return Optional.of("clientId: the client id registered with the provider is needed");
    }
    if (!clientSecretEnv.isEmpty() && !clientSecretFile.isEmpty()) {
      return Optional.of("clientSecretEnv: give the client secret in clientSecretEnv or clientSecretFile, not both");
    }
    if (!clientSecretEnv.isEmpty() && !clientSecretEnv.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      return Optional.of("clientSecretEnv: name an environment variable (letters, digits, _), not the secret");
    }
    if (!scopes.contains("openid")) {
      return Optional.of("scopes: must include openid (given " + scopes + ")");
    }
    for (String scope : scopes) {
      if (scope == null || !scope.matches("[\\x21\\x23-\\x5B\\x5D-\\x7E]+")) {
        return Optional.of("scopes: '" + scope + "' is not a scope token");
      }
    }
    if (!adminClaim.isEmpty() && (adminValues.isEmpty() || adminValues.stream().anyMatch(v -> v == null || v.isBlank()))) {
      return Optional.of("adminValues: list the values of " + adminClaim + " that make an admin");
    }
    if (adminClaim.isEmpty() && !adminValues.isEmpty()) {
      return Optional.of("adminClaim: adminValues need the claim they are found in");
    }
    if (buttonLabel.length() > 60) {
      return Optional.of("buttonLabel: at most 60 characters");
    }
    return Optional.empty();
  }

  /**
   * The client secret, read from the environment variable or file named here; empty for a public client.
   *
   * @throws IllegalArgumentException naming the key when the variable is unset or the file unreadable (never the
   *     secret)
   */
  public Optional<String> clientSecret(Map<String, String> environment) {
    try {
      return ConfigSecrets.read("reader.oidc.clientSecretEnv", clientSecretEnv.isEmpty() ? null : clientSecretEnv,
          "reader.oidc.clientSecretFile", clientSecretFile.isEmpty() ? null : clientSecretFile, Path.of(""),
          environment::get);
    } catch (InvalidConfigException e) {
      throw new IllegalArgumentException(e.key() + ": " + e.problem());
    }
  }

  private static boolean httpUrl(String text) {
    try {
      URI uri = new URI(text);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
          && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }
}
