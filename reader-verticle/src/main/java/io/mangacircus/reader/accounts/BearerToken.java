package io.mangacircus.reader.accounts;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A configured bearer token (admin, metrics) and the check of an {@code Authorization} header against it: both sides
 * are hashed to the same length first and compared in constant time, so neither the token's length nor how many of
 * its characters a guess got right shows in the answer's time.
 */
public final class BearerToken {

  private final byte[] digest;

  /** {@code token} empty: no header ever matches. */
  public BearerToken(String token) {
    this.digest = token.isEmpty() ? null : sha256(token);
  }

  /** Whether a token is configured at all. */
  public boolean enabled() {
    return digest != null;
  }

  /** Whether {@code authorization} offers a bearer token (right or wrong). */
  public static boolean offered(String authorization) {
    return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7);
  }

  /** Whether {@code authorization} is {@code Bearer <the token>}. */
  public boolean matches(String authorization) {
    if (digest == null || !offered(authorization)) {
      return false;
    }
    return MessageDigest.isEqual(digest, sha256(authorization.substring(7).trim()));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
