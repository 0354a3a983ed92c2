package io.mangacircus.reader.accounts.oidc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The claims a sign-in maps, completed from the provider's userinfo answer when the ID token lacks some of them (as
 * Authelia and Zitadel send profile and group claims by default): the ID token's own claims always win, and an answer
 * about another subject is never used (OpenID Connect Core 5.3.2).
 */
public final class UserInfoClaims {

  /** The claims as the mapping reads them, or why the userinfo answer was refused. */
  public sealed interface Outcome permits Completed, Refused {
  }

  /** The ID token's claims with the ones it lacked taken from the userinfo answer. */
  public record Completed(Map<String, Object> claims) implements Outcome {
  }

  /** A userinfo answer that may not be used. */
  public record Refused(String code, String reason) implements Outcome {
  }

  private final List<String> mapped;

  public UserInfoClaims(OidcConfig config) {
    this.mapped = Stream.of(config.usernameClaim(), config.adminClaim(), config.librariesClaim(),
        config.ageLimitClaim()).filter(claim -> !claim.isEmpty()).toList();
  }

  /** The mapped claims the ID token lacks: when there are none, the userinfo endpoint need not be asked. */
  public List<String> missing(Map<String, Object> idClaims) {
    return mapped.stream().filter(claim -> idClaims.get(claim) == null).toList();
  }

  /**
   * The ID token's claims completed by a userinfo answer.
   *
   * @param subject the ID token's {@code sub}, already checked
   */
  public Outcome complete(Map<String, Object> idClaims, Map<String, Object> userInfo, String subject) {
    if (!(userInfo.get("sub") instanceof String sub) || !sub.equals(subject)) {
      return new Refused("userinfo_subject_mismatch", "the userinfo answer is about another subject than the ID "
          + "token");
    }
    Map<String, Object> claims = new LinkedHashMap<>(idClaims);
    for (String claim : mapped) {
      if (claims.get(claim) == null) {
        Optional.ofNullable(userInfo.get(claim)).ifPresent(value -> claims.put(claim, value));
      }
    }
    return new Completed(Collections.unmodifiableMap(claims));
  }
}
