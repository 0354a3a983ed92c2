package io.mangacircus.reader.accounts.oidc;

import io.mangacircus.reader.accounts.Sessions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;

/**
 * The checks OpenID Connect Core 3.1.3.7 asks of the client itself on a signed ID token's claims: the issuer is the
 * configured one, the audience holds our client id (and {@code azp} names us when there are several), the nonce is the
 * one this sign-in sent, and the token is within its lifetime. The signature is the library's check (JWKS), not this.
 */
public final class IdTokenCheck {

  /** What the checks found. */
  public sealed interface Outcome permits Accepted, Refused {
  }

  /** Every check passed; {@code subject} names the person at the issuer. */
  public record Accepted(String subject) implements Outcome {
  }

  /** A check failed: {@code code} for the login page, {@code reason} for the log (no token in it). */
  public record Refused(String code, String reason) implements Outcome {
  }

  /** The clock difference tolerated between the provider and this server. */
  public static final Duration LEEWAY = Duration.ofSeconds(60);

  private final String issuer;
  private final String clientId;
  private final Duration leeway;
  private final InstantSource clock;

  /** @param leeway the clock difference tolerated between the provider and this server */
  public IdTokenCheck(String issuer, String clientId, Duration leeway, InstantSource clock) {
    this.issuer = issuer;
    this.clientId = clientId;
    this.leeway = leeway;
    this.clock = clock;
  }

  /** Checks the claims of an ID token returned to the sign-in that sent {@code nonce}. */
  public Outcome check(Map<String, Object> claims, String nonce) {
    Object iss = claims.get("iss");
    if (!(iss instanceof String text) || !(text.equals(issuer) || text.equals(issuer + "/"))) {
      return new Refused("wrong_issuer", "the ID token's issuer " + describe(iss) + " is not the configured "
          + issuer);
    }
    List<?> audience = claims.get("aud") instanceof List<?> list ? list
        : claims.get("aud") instanceof String one ? List.of(one) : List.of();
    if (!audience.contains(clientId)) {
      return new Refused("wrong_audience", "the ID token is for " + audience + ", not for client " + clientId);
    }
    Object azp = claims.get("azp");
    if ((audience.size() > 1 || azp != null) && !clientId.equals(azp)) {
      return new Refused("wrong_audience", "the ID token's authorized party " + describe(azp) + " is not client "
          + clientId);
    }
    if (!(claims.get("nonce") instanceof String sent) || !Sessions.same(sent, nonce)) {
      return new Refused("wrong_nonce", "the ID token's nonce is not the one this sign-in sent (a replayed or "
          + "injected token)");
    }
    long now = clock.instant().getEpochSecond();
    if (!(claims.get("exp") instanceof Number exp)) {
      return new Refused("expired", "the ID token has no expiry");
    }
    if (now > exp.longValue() + leeway.toSeconds()) {
      return new Refused("expired", "the ID token expired at " + java.time.Instant.ofEpochSecond(exp.longValue()));
    }
    if (claims.get("iat") instanceof Number iat && iat.longValue() > now + leeway.toSeconds()) {
      return new Refused("expired", "the ID token was issued in the future (" + java.time.Instant.ofEpochSecond(
          iat.longValue()) + "): check the clocks");
    }
    if (!(claims.get("sub") instanceof String subject) || subject.isEmpty() || subject.length() > 255) {
      return new Refused("no_subject", "the ID token names no subject");
    }
    return new Accepted(subject);
  }

  private static String describe(Object value) {
    return value == null ? "(none)" : "'" + value + "'";
  }
}
