package io.mangacircus.reader.accounts.oidc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.reader.accounts.Sessions;
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

  private static final ObjectMapper JSON = new ObjectMapper();

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
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(this));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a record of strings is always JSON", e);
    }
  }

  /** The sign-in a cookie value holds; empty for anything else. */
  public static Optional<PendingSignIn> fromCookie(String value) {
    if (value == null || value.isEmpty() || value.length() > 4096) {
      return Optional.empty();
    }
    try {
      PendingSignIn pending = JSON.readValue(Base64.getUrlDecoder().decode(value), PendingSignIn.class);
      return pending.state() == null || pending.nonce() == null || pending.verifier() == null
          || pending.returnTo() == null || pending.redirectUri() == null ? Optional.empty() : Optional.of(pending);
    } catch (IllegalArgumentException | java.io.IOException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return "PendingSignIn[returnTo=" + returnTo + ", startedAt=" + startedAt + "]";
  }
}
