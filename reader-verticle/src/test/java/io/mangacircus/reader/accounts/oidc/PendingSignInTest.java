package io.mangacircus.reader.accounts.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class PendingSignInTest {

  private static final Instant NOW = Instant.parse("2026-12-04T23:00:00Z");

  @Test
  void theChallengeIsTheS256OfTheVerifier() throws Exception {
    // RFC 7636 appendix B.
    PendingSignIn pending = new PendingSignIn("s", "n", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "/", "r", 0);

    assertThat(pending.challenge()).isEqualTo("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  }

  @Test
  void eachSignInHasItsOwnSecretsAndTheCookieCarriesThemBack() {
    PendingSignIn one = PendingSignIn.start("/series.html?id=moon", "http://h/auth/oidc/callback", NOW);
    PendingSignIn two = PendingSignIn.start("/", "http://h/auth/oidc/callback", NOW);

    assertThat(one.state()).isNotEqualTo(two.state());
    assertThat(one.nonce()).isNotEqualTo(one.state()).isNotEqualTo(two.nonce());
    assertThat(one.verifier()).hasSizeBetween(43, 128).matches("[A-Za-z0-9_-]+");
    assertThat(PendingSignIn.fromCookie(one.cookieValue())).contains(one);
    assertThat(one.toString()).doesNotContain(one.state(), one.nonce(), one.verifier());
  }

  @Test
  void aCookieThatIsNotASignInIsNone() {
    assertThat(PendingSignIn.fromCookie("not-base64!")).isEmpty();
    assertThat(PendingSignIn.fromCookie(Base64.getUrlEncoder().encodeToString("{\"state\":\"x\"}"
        .getBytes(StandardCharsets.UTF_8)))).isEmpty();
    assertThat(PendingSignIn.fromCookie(null)).isEmpty();
  }

  @Test
  void aSignInExpiresAfterTenMinutes() {
    PendingSignIn pending = PendingSignIn.start("/", "r", NOW);

    assertThat(pending.expired(NOW.plusSeconds(600))).isFalse();
    assertThat(pending.expired(NOW.plusSeconds(601))).isTrue();
  }
}
