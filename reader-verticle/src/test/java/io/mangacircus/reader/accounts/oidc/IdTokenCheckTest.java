package io.mangacircus.reader.accounts.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdTokenCheckTest {

  private static final String ISSUER = "https://auth.example.org/application/o/mangacircus";
  private static final Instant NOW = Instant.parse("2026-12-04T23:00:00Z");

  private final IdTokenCheck check = new IdTokenCheck(ISSUER, "mangacircus", Duration.ofSeconds(60),
      InstantSource.fixed(NOW));

  private static Map<String, Object> claims() {
    Map<String, Object> claims = new HashMap<>();
    claims.put("iss", ISSUER);
    claims.put("aud", List.of("mangacircus"));
    claims.put("sub", "person-1");
    claims.put("nonce", "the-nonce");
    claims.put("exp", NOW.plusSeconds(300).getEpochSecond());
    claims.put("iat", NOW.minusSeconds(5).getEpochSecond());
    return claims;
  }

  private String refusal(Map<String, Object> claims) {
    IdTokenCheck.Outcome outcome = check.check(claims, "the-nonce");
    return outcome instanceof IdTokenCheck.Refused refused ? refused.code() : "accepted";
  }

  @Test
  void aTokenForThisClientFromThisIssuerWithThisNonceIsAccepted() {
    assertThat(check.check(claims(), "the-nonce")).isEqualTo(new IdTokenCheck.Accepted("person-1"));
    Map<String, Object> single = claims();
    single.put("aud", "mangacircus");
    assertThat(refusal(single)).as("a single audience may be a string").isEqualTo("accepted");
  }

  @Test
  void anotherIssuerIsRefused() {
    Map<String, Object> claims = claims();
    claims.put("iss", "https://auth.example.org/application/o/other");
    assertThat(refusal(claims)).isEqualTo("wrong_issuer");
    claims.remove("iss");
    assertThat(refusal(claims)).isEqualTo("wrong_issuer");
  }

  @Test
  void aTokenNotForThisClientIsRefused() {
    Map<String, Object> claims = claims();
    claims.put("aud", List.of("another-app"));
    assertThat(refusal(claims)).isEqualTo("wrong_audience");
  }

  @Test
  void severalAudiencesNeedThisClientAsAuthorizedParty() {
    Map<String, Object> claims = claims();
    claims.put("aud", List.of("mangacircus", "another-app"));
    assertThat(refusal(claims)).isEqualTo("wrong_audience");
    claims.put("azp", "another-app");
    assertThat(refusal(claims)).isEqualTo("wrong_audience");
    claims.put("azp", "mangacircus");
    assertThat(refusal(claims)).isEqualTo("accepted");
  }

  @Test
  void anotherOrMissingNonceIsRefused() {
    Map<String, Object> claims = claims();
    claims.put("nonce", "someone-elses");
    assertThat(refusal(claims)).isEqualTo("wrong_nonce");
    claims.remove("nonce");
    assertThat(refusal(claims)).isEqualTo("wrong_nonce");
  }

  @Test
  void aTokenPastItsExpiryByMoreThanTheLeewayIsRefused() {
    Map<String, Object> claims = claims();
    claims.put("exp", NOW.minusSeconds(30).getEpochSecond());
    assertThat(refusal(claims)).as("within the leeway").isEqualTo("accepted");
    claims.put("exp", NOW.minusSeconds(61).getEpochSecond());
    assertThat(refusal(claims)).isEqualTo("expired");
    claims.remove("exp");
    assertThat(refusal(claims)).isEqualTo("expired");
  }

  @Test
  void aTokenIssuedInTheFutureIsRefused() {
    Map<String, Object> claims = claims();
    claims.put("iat", NOW.plusSeconds(600).getEpochSecond());
    assertThat(refusal(claims)).isEqualTo("expired");
  }

  @Test
  void aTokenWithoutSubjectIsRefused() {
    Map<String, Object> claims = claims();
    claims.remove("sub");
    assertThat(refusal(claims)).isEqualTo("no_subject");
  }
}
