package io.mangacircus.reader.accounts.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserInfoClaimsTest {

  private static final UserInfoClaims CLAIMS = new UserInfoClaims(new OidcConfig("https://auth.example.org",
      "mangacircus", null, null, null, null, "groups", List.of("admins"), null, "age", null, null, null));

  @Test
  void onlyTheMappedClaimsTheIdTokenLacksAreMissing() {
    assertThat(CLAIMS.missing(Map.of("sub", "s1", "preferred_username", "ann", "groups", List.of(), "age", "12")))
        .isEmpty();
    assertThat(CLAIMS.missing(Map.of("sub", "s1", "email", "ann@example.org"))).as("in the mapping's order")
        .containsExactly("preferred_username", "groups", "age");
  }

  @Test
  void theIdTokensClaimsWinAndOnlyMappedOnesAreTakenFromUserinfo() {
    UserInfoClaims.Outcome outcome = CLAIMS.complete(Map.of("sub", "s1", "iss", "https://auth.example.org",
        "preferred_username", "ann"), Map.of("sub", "s1", "iss", "https://other.example.org", "preferred_username",
        "someone", "groups", List.of("admins"), "email", "ann@example.org"), "s1");

    assertThat(outcome).isInstanceOfSatisfying(UserInfoClaims.Completed.class, completed ->
        assertThat(completed.claims()).containsExactlyInAnyOrderEntriesOf(Map.of("sub", "s1",
            "iss", "https://auth.example.org", "preferred_username", "ann", "groups", List.of("admins"))));
  }

  @Test
  void anAnswerAboutAnotherSubjectOrWithoutOneIsRefused() {
    assertThat(CLAIMS.complete(Map.of("sub", "s1"), Map.of("sub", "s2", "preferred_username", "eve"), "s1"))
        .isEqualTo(new UserInfoClaims.Refused("userinfo_subject_mismatch",
            "the userinfo answer is about another subject than the ID token"));
    assertThat(CLAIMS.complete(Map.of("sub", "s1"), Map.of("preferred_username", "eve"), "s1"))
        .isInstanceOf(UserInfoClaims.Refused.class);
  }
}
