package io.mangacircus.reader.accounts;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hashes passwords with PBKDF2-HMAC-SHA256 (the JDK's, 210,000 iterations, 16-byte salt) into
 * {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}, and checks them in constant time.
 */
public final class PasswordHasher {

  /** Iterations for new hashes (OWASP's 2023 figure for PBKDF2-HMAC-SHA256). */
  public static final int ITERATIONS = 210_000;

  /**
   * The system property a test JVM sets for cheaper new hashes: a suite creates and checks hundreds of accounts, each
   * about 70 ms of CPU at {@link #ITERATIONS}. A hash records its own count, so it verifies like any other. Never set
   * for a running product; if it is, the log says so at the first hash.
   */
  public static final String TEST_ITERATIONS_PROPERTY = "mangacircus.test.passwordHashIterations";

  /** The fewest iterations {@link #TEST_ITERATIONS_PROPERTY} may ask for. */
  static final int TEST_ITERATIONS_FLOOR = 1_000;

  private static final Logger LOG = LoggerFactory.getLogger(PasswordHasher.class);

  private static final String PREFIX = "pbkdf2-sha256";
  private static final SecureRandom RANDOM = new SecureRandom();

  private PasswordHasher() {
  }

  /** A new salted hash of {@code password}. */
  public static String hash(char[] password) {
    return hash(password, NewHashes.ITERATIONS);
  }

  /** A new salted hash of {@code password} with {@code iterations}. */
  static String hash(char[] password, int iterations) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return PREFIX + "$" + iterations + "$" + b64.encodeToString(salt) + "$"
        + b64.encodeToString(derive(password, salt, iterations));
  }

  /**
   * The iterations new hashes get for a value of {@link #TEST_ITERATIONS_PROPERTY}: {@link #ITERATIONS} without one
   * (or with one that is not a whole number), else that number, never fewer than {@link #TEST_ITERATIONS_FLOOR}.
   */
  static int iterationsFor(String property) {
    if (property == null || property.isBlank()) {
      return ITERATIONS;
    }
    try {
      return Math.max(TEST_ITERATIONS_FLOOR, Integer.parseInt(property.trim()));
    } catch (NumberFormatException e) {
      return ITERATIONS;
    }
  }

  /** The count new hashes get in this JVM, read once. */
  private static final class NewHashes {
    static final int ITERATIONS = iterationsFor(System.getProperty(TEST_ITERATIONS_PROPERTY));

    static {
      if (ITERATIONS != PasswordHasher.ITERATIONS) {
        LOG.warn("[ACCOUNTS] new password hashes get {} PBKDF2 iterations ({}), not {}: for test runs only",
            ITERATIONS, TEST_ITERATIONS_PROPERTY, PasswordHasher.ITERATIONS);
      }
    }
  }

  /**
   * Whether {@code password} is the password of an enabled account whose hash is {@code encoded}; for no account (null:
   * unknown or disabled) a fixed hash is checked instead and false answered, so that every refusal costs one key
   * derivation and the time of an answer does not tell which user names exist.
   */
  public static boolean verifyAccount(char[] password, String encoded) {
    boolean none = encoded == null || NO_PASSWORD.equals(encoded);
    boolean matches = verify(password, none ? NoAccount.HASH : encoded);
    return !none && matches;
  }

  /**
   * The stored hash of an account that signs in only with its provider: no password matches it, and checking one costs
   * what checking a wrong password costs, so that a guess does not learn how the account signs in.
   */
  public static final String NO_PASSWORD = "!signs-in-with-provider";

  /** Whether {@code encoded} is {@link #NO_PASSWORD}. */
  public static boolean noPassword(String encoded) {
    return NO_PASSWORD.equals(encoded);
  }

  /** The hash checked for no account: made once, of a random password nobody knows. */
  private static final class NoAccount {
    static final String HASH = hash(java.util.UUID.randomUUID().toString().toCharArray());
  }

  /** Whether {@code password} matches {@code encoded}; false for anything malformed. */
  public static boolean verify(char[] password, String encoded) {
    String[] parts = encoded == null ? new String[0] : encoded.split("\\$");
    if (parts.length != 4 || !PREFIX.equals(parts[0])) {
      return false;
    }
    try {
      int iterations = Integer.parseInt(parts[1]);
      byte[] salt = Base64.getDecoder().decode(parts[2]);
      byte[] expected = Base64.getDecoder().decode(parts[3]);
      return MessageDigest.isEqual(expected, derive(password, salt, iterations));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, 256);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every JDK", e);
    } finally {
      spec.clearPassword();
    }
  }
}
