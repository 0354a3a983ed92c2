package io.mangacircus.reader.accounts.oidc;

import io.mangacircus.reader.accounts.Sessions;
import io.mangacircus.reader.http.JsonCookie;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * A sign-in sent to the provider and not yet back: its state, nonce and PKCE verifier, where the browser returns, and
 * the redirect URI the provider was given. It travels in the browser's own short-lived cookie, so that the callback may
 * reach another reader behind the same proxy; it is never logged.
 *
 * @param startedAt epoch seconds when the sign-in was sent to the provider
 */
public record PendingSignIn(String state, String nonce, String verifier, String returnTo, String redirectUri,
    long startedAt) {

  /** The pending sign-in's cookie (Path {@code /auth/oidc}, HttpOnly, SameSite=Lax). */
  public static final String COOKIE = "mc_oidc";

  /** How long the provider may take to send the browser back. */
  public static final Duration LIFETIME = Duration.ofMinutes(10);

  /** A new sign-in: fresh random state, nonce and verifier. */
  public static PendingSignIn start(String returnTo, String redirectUri, Instant now) {
    return new PendingSignIn(Sessions.newToken(), Sessions.newToken(), Sessions.newToken() + Sessions.newToken(),
        returnTo, redirectUri, now.getEpochSecond());
  }

  /** The PKCE challenge of the verifier: base64url(SHA-256(verifier)), method S256 (RFC 7636 4.2). */
  public String challenge() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }

  /** Whether the provider took longer than {@link #LIFETIME} to send the browser back. */
  public boolean expired(Instant now) {
    return now.getEpochSecond() > startedAt + LIFETIME.toSeconds() || now.getEpochSecond() < startedAt - 60;
  }

  /** The cookie's value: the record as JSON, base64url. */
  public String cookieValue() {
    return JsonCookie.encode(this);
  }

  /** The sign-in a cookie value holds; empty for anything else. */
  public static Optional<PendingSignIn> fromCookie(String value) {
    return JsonCookie.decode(value, PendingSignIn.class).filter(pending -> pending.state() != null
        && pending.nonce() != null && pending.verifier() != null && pending.returnTo() != null
        && pending.redirectUri() != null);
  }

  @Override
  public String toString() {
    return "PendingSignIn[returnTo=" + returnTo + ", startedAt=" + startedAt + "]";
  }
}
