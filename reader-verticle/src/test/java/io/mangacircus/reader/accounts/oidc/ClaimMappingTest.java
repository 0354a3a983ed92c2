package io.mangacircus.reader.accounts.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.access.UserAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClaimMappingTest {

  private static OidcConfig config(String adminClaim, List<String> adminValues, String librariesClaim,
      String ageLimitClaim) {
    return new OidcConfig("https://auth.example.org", "mangacircus", null, null, null, null, adminClaim, adminValues,
        librariesClaim, ageLimitClaim, null, null, null);
  }

  @Test
  void theUserNameIsMadeToFitTheUserNameRules() {
    assertThat(ClaimMapping.username("alice")).contains("alice");
    assertThat(ClaimMapping.username("alice@example.org")).contains("alice_example.org");
    assertThat(ClaimMapping.username("José María")).contains("Jos__Mar_a");
    assertThat(ClaimMapping.username("x".repeat(100))).contains("x".repeat(64));
    assertThat(ClaimMapping.username("@@@")).isEmpty();
    assertThat(ClaimMapping.username(42)).isEmpty();
    assertThat(ClaimMapping.username(null)).isEmpty();
  }

  @Test
  void withoutMappingsTheClaimsSetOnlyTheUserName() {
    Optional<ClaimMapping.Mapped> mapped = new ClaimMapping(config(null, null, null, null))
        .map(Map.of("preferred_username", "alice", "groups", List.of("admins")), new ArrayList<>());

    assertThat(mapped).contains(new ClaimMapping.Mapped("alice", Optional.empty(), Optional.empty(),
        Optional.empty()));
    assertThat(mapped.get().accessFrom(UserAccess.only(Set.of("downloads"), AgeLimit.NONE)))
        .isEqualTo(UserAccess.only(Set.of("downloads"), AgeLimit.NONE));
  }

  @Test
  void theAdminClaimMakesAnAdminWhenItHoldsAnAdminValueAndAReaderOtherwise() {
    ClaimMapping mapping = new ClaimMapping(config("groups", List.of("mc-admins"), null, null));

    assertThat(mapping.map(Map.of("preferred_username", "a", "groups", List.of("staff", "mc-admins")),
        new ArrayList<>()).orElseThrow().role()).contains("admin");
    assertThat(mapping.map(Map.of("preferred_username", "a", "groups", "mc-admins"), new ArrayList<>())
        .orElseThrow().role()).contains("admin");
    assertThat(mapping.map(Map.of("preferred_username", "a", "groups", List.of("staff")), new ArrayList<>())
        .orElseThrow().role()).contains("reader");
    assertThat(mapping.map(Map.of("preferred_username", "a"), new ArrayList<>()).orElseThrow().role())
        .as("no groups at all").contains("reader");
  }

  @Test
  void librariesAndAgeLimitFollowTheirClaimsWhenMapped() {
    ClaimMapping mapping = new ClaimMapping(config(null, null, "mc_libraries", "mc_age_limit"));
    List<String> problems = new ArrayList<>();

    ClaimMapping.Mapped mapped = mapping.map(Map.of("preferred_username", "kid", "mc_libraries",
        List.of("downloads", "Comics", "not a name!"), "mc_age_limit", "12"), problems).orElseThrow();

    assertThat(mapped.accessFrom(UserAccess.EVERYTHING)).isEqualTo(UserAccess.only(Set.of("downloads", "comics"),
        AgeLimit.atMost(AgeRating.fromCode("12").orElseThrow())));
    assertThat(problems).singleElement().asString().contains("not a name!");
    ClaimMapping.Mapped all = mapping.map(Map.of("preferred_username", "grown-up", "mc_libraries", "all",
        "mc_age_limit", "none"), problems).orElseThrow();
    assertThat(all.accessFrom(UserAccess.only(Set.of(), AgeLimit.NONE))).isEqualTo(UserAccess.EVERYTHING);
  }

  @Test
  void aMappedClaimTheTokenLacksLeavesThatPartAsItIs() {
    ClaimMapping mapping = new ClaimMapping(config(null, null, "mc_libraries", "mc_age_limit"));
    UserAccess current = UserAccess.only(Set.of("downloads"), AgeLimit.atMost(AgeRating.fromCode("15")
        .orElseThrow()));
    List<String> problems = new ArrayList<>();

    ClaimMapping.Mapped mapped = mapping.map(Map.of("preferred_username", "kid", "mc_age_limit", "grown-up"),
        problems).orElseThrow();

    assertThat(mapped.accessFrom(current)).isEqualTo(current);
    assertThat(problems).singleElement().asString().contains("mc_age_limit");
  }

  @Test
  void aTokenWithoutAUsableUserNameMapsToNothing() {
    assertThat(new ClaimMapping(config(null, null, null, null)).map(Map.of("sub", "x"), new ArrayList<>()))
        .isEmpty();
  }
}
