package io.mangacircus.reader.accounts.oidc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OidcConfigTest {

  private static OidcConfig config(String issuer, String clientId, String secretEnv, String secretFile,
      List<String> scopes, String adminClaim, List<String> adminValues) {
    return new OidcConfig(issuer, clientId, secretEnv, secretFile, scopes, null, adminClaim, adminValues, null, null,
        null, null, null);
  }

  @Test
  void defaultsAreTheUsualOnes() {
    OidcConfig config = config("https://auth.example.org/", "mc", null, null, null, null, null);

    assertThat(config.problem()).isEmpty();
    assertThat(config.issuer()).isEqualTo("https://auth.example.org");
    assertThat(config.scopes()).containsExactly("openid", "profile", "email");
    assertThat(config.usernameClaim()).isEqualTo("preferred_username");
    assertThat(config.passwordLogin()).isTrue();
    assertThat(config.linkExistingAccounts()).isFalse();
  }

  @Test
  void eachProblemNamesItsKey() {
    assertThat(config(null, "mc", null, null, null, null, null).problem()).hasValueSatisfying(p ->
        assertThat(p).startsWith("issuer:"));
    assertThat(config("ftp://auth.example.org", "mc", null, null, null, null, null).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("issuer:"));
    assertThat(config("https://auth.example.org", "", null, null, null, null, null).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("clientId:"));
    assertThat(config("https://auth.example.org", "mc", "MC_SECRET", "/run/secret", null, null, null).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("clientSecretEnv:"));
    assertThat(config("https://auth.example.org", "mc", "s3cr3t value!", null, null, null, null).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("clientSecretEnv:").doesNotContain("s3cr3t"));
    assertThat(config("https://auth.example.org", "mc", null, null, List.of("profile"), null, null).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("scopes:"));
    assertThat(config("https://auth.example.org", "mc", null, null, null, "groups", List.of()).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("adminValues:"));
    assertThat(config("https://auth.example.org", "mc", null, null, null, null, List.of("admins")).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("adminClaim:"));
  }

  @Test
  void theSecretComesFromTheNamedVariableOrFileAndAMissingOneNamesTheKeyNotTheSecret(@TempDir Path dir)
      throws Exception {
    Path file = Files.writeString(dir.resolve("secret"), "from-the-file\n");

    assertThat(config("https://a.example", "mc", "MC_OIDC", null, null, null, null)
        .clientSecret(Map.of("MC_OIDC", "from-the-env"))).contains("from-the-env");
    assertThat(config("https://a.example", "mc", null, file.toString(), null, null, null).clientSecret(Map.of()))
        .contains("from-the-file");
    assertThat(config("https://a.example", "mc", null, null, null, null, null).clientSecret(Map.of())).isEmpty();
    assertThatThrownBy(() -> config("https://a.example", "mc", "MC_OIDC", null, null, null, null)
        .clientSecret(Map.of())).hasMessageStartingWith("reader.oidc.clientSecretEnv:").hasMessageContaining("MC_OIDC");
    assertThatThrownBy(() -> config("https://a.example", "mc", null, dir.resolve("absent").toString(), null, null,
        null).clientSecret(Map.of())).hasMessageStartingWith("reader.oidc.clientSecretFile:");
  }
}
