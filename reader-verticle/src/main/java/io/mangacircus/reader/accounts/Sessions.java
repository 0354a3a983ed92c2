package io.mangacircus.reader.accounts;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** Session and CSRF tokens: random, URL-safe; only a SHA-256 of a session token is stored. */
public final class Sessions {

  /** The session cookie's name. */
  public static final String COOKIE = "mc_session";

  /** The header that must carry the session's CSRF token on every state-changing request. */
  public static final String CSRF_HEADER = "X-CSRF-Token";

  private static final SecureRandom RANDOM = new SecureRandom();

  private Sessions() {
  }

  /** 32 random bytes, base64url. */
  public static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * One SHA-256 instance per thread: every API request hashes its session token, and looking the algorithm up in the
   * security providers costs more than hashing a 43-character token. {@code digest} resets the instance.
   */
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  });

  /** What the database keeps of a session token. */
  public static String hash(String token) {
    return HexFormat.of().formatHex(SHA256.get().digest(token.getBytes(StandardCharsets.UTF_8)));
  }

  /** Constant-time comparison of two tokens. */
  public static boolean same(String a, String b) {
    return a != null && b != null
        && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
