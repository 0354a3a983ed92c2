package io.mangacircus.reader.accounts.oidc;

import com.nimbusds.oauth2.sdk.TokenRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenCallback;

/**
 * A person whose ID token lacks some claims (and may name another subject) while the access token, which the mock
 * provider's userinfo endpoint answers from, has them all: a provider that sends profile claims only from userinfo.
 * The provider makes the ID token before the access token of one code exchange, so the first token it asks about is
 * the ID token.
 */
final class SplitClaims implements OAuth2TokenCallback {

  private final DefaultOAuth2TokenCallback person;
  private final Set<String> notInIdToken;
  private final String userInfoSubject;
  private int subjects;
  private int claimSets;

  /**
   * @param claims every claim, as the userinfo endpoint answers them
   * @param notInIdToken the claims the ID token leaves out
   * @param userInfoSubject the subject of the access token (and so of the userinfo answer)
   */
  SplitClaims(String subject, Map<String, Object> claims, Set<String> notInIdToken, String userInfoSubject) {
    this.person = ProviderSignIn.person(subject, claims);
    this.notInIdToken = notInIdToken;
    this.userInfoSubject = userInfoSubject;
  }

  @Override
  public String issuerId() {
    return person.issuerId();
  }

  @Override
  public synchronized String subject(TokenRequest request) {
    return subjects++ == 0 ? person.subject(request) : userInfoSubject;
  }

  @Override
  public String typeHeader(TokenRequest request) {
    return person.typeHeader(request);
  }

  @Override
  public List<String> audience(TokenRequest request) {
    return person.audience(request);
  }

  @Override
  public synchronized Map<String, Object> addClaims(TokenRequest request) {
    Map<String, Object> claims = new HashMap<>(person.addClaims(request));
    if (claimSets++ == 0) {
      claims.keySet().removeAll(notInIdToken);
    }
    return claims;
  }

  @Override
  public long tokenExpiry() {
    return person.tokenExpiry();
  }
}
