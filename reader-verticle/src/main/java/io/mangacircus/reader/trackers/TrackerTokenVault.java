package io.mangacircus.reader.trackers;

import io.mangacircus.contracts.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals tracker tokens for storage (AES-256-GCM, bound to their user and tracker) with a key kept in the data folder's
 * owner-only {@code tracker-key} file, and opens them again; signs the pending sign-in cookies with a key derived from
 * it. It neither stores the sealed values nor logs anything.
 */
public final class TrackerTokenVault {

  /** The key file's name in the data folder. */
  public static final String KEY_FILE = "tracker-key";

  /** Every sealed value starts with this, so a later format or key can be told apart from this one. */
  static final String VERSION = "v1:";

  private static final int KEY_BYTES = 32;
  // 96-bit nonces are GCM's native size (NIST SP 800-38D); random ones are safe for far more seals than a reader makes.
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final String CIPHER = "AES/GCM/NoPadding";
  private static final String MAC = "HmacSHA256";
  // The cookie key is HMAC(key, this label): one key file for every reader, but never the AES key itself on two jobs.
  private static final byte[] COOKIE_KEY_LABEL = "mangacircus tracker sign-in cookie v1".getBytes(StandardCharsets.UTF_8);
  // Tracker names go into the associated data between separators, so they may not hold one.
  private static final Pattern TRACKER_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");
  // Bits that let anyone but the owner read or replace the key.
  private static final Set<PosixFilePermission> NOT_OWNER = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private final SecretKey key;
  private final SecretKey cookieKey;
  private final SecureRandom random;

  /**
   * Reads the key from {@code dataFolder/tracker-key}, creating it (random, 0600) when the file is absent. Blocking
   * file work: construct it off the event loop. Sealing and opening are CPU work of microseconds.
   *
   * @throws KeyFileRefused when the key file is unusable; it is then left exactly as it is
   */
  public TrackerTokenVault(Path dataFolder) {
    this.random = new SecureRandom();
    Path file = keyFile(dataFolder);
    byte[] raw = Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? read(file) : create(file, random);
    this.key = new SecretKeySpec(raw, "AES");
    this.cookieKey = new SecretKeySpec(mac(new SecretKeySpec(raw, MAC), COOKIE_KEY_LABEL), MAC);
  }

  private TrackerTokenVault(byte[] key) {
    this.random = new SecureRandom();
    this.key = new SecretKeySpec(key, "AES");
    this.cookieKey = new SecretKeySpec(mac(new SecretKeySpec(key, MAC), COOKIE_KEY_LABEL), MAC);
  }

  /**
   * Reads the key from {@code file}, a key several readers share ({@code reader.trackers.keyFile}): it must exist and
   * is never created, since a key made here would differ from the other readers' and their tokens would not open.
   *
   * @throws KeyFileRefused naming {@code reader.trackers.keyFile} when the file is missing or unusable; left as it is
   */
  public static TrackerTokenVault sharedKey(Path file) {
    Path absolute = file.toAbsolutePath();
    try {
      if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
        throw new KeyFileRefused(absolute, "does not exist; copy the key of the first reader there (or make one: "
            + "'head -c 32 /dev/urandom > " + absolute + " && chmod 600 " + absolute + "') and restart");
      }
      return new TrackerTokenVault(read(absolute));
    } catch (KeyFileRefused e) {
      throw new KeyFileRefused("reader.trackers.keyFile: " + e.getMessage());
    }
  }

  /** The key file of a data folder, for messages and docs. */
  public static Path keyFile(Path dataFolder) {
    return dataFolder.resolve(KEY_FILE).toAbsolutePath();
  }

  /**
   * Seals {@code token} for storage as {@code v1:} and base64 of nonce, ciphertext and tag. Each call draws a fresh
   * nonce, so sealing the same token twice gives two different values.
   */
  public String seal(long userId, String tracker, Secret token) {
    Objects.requireNonNull(token, "token");
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance(CIPHER);
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(associatedData(userId, tracker));
      byte[] sealed = cipher.doFinal(token.reveal().getBytes(StandardCharsets.UTF_8));
      ByteBuffer out = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed);
      return VERSION + Base64.getEncoder().encodeToString(out.array());
    } catch (GeneralSecurityException e) {
      // AES-GCM is a JDK requirement: failing here is a broken runtime, not a bad token.
      throw new IllegalStateException("this Java runtime cannot seal with " + CIPHER, e);
    }
  }

  /**
   * Opens a value {@link #seal} made for the same user and tracker with this key.
   *
   * @throws SealedTokenRefused when it was changed, cut short, sealed for another user or tracker, or with another
   *     key; the message names the user and tracker only, never the value or the token
   */
  public Secret open(long userId, String tracker, String sealed) {
    byte[] aad = associatedData(userId, tracker);
    String link = "user " + userId + " on " + tracker;
    if (sealed == null || !sealed.startsWith(VERSION)) {
      throw new SealedTokenRefused("the stored token of " + link + " is not a " + VERSION.substring(0, 2)
          + " sealed value (another format or another column); sign in to the tracker again");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(sealed.substring(VERSION.length()));
    } catch (IllegalArgumentException e) {
      // The decoder's message quotes the offending character: no cause kept, so no part of the value travels on.
      throw new SealedTokenRefused("the stored token of " + link + " is not valid base64; sign in to the tracker again");
    }
    if (bytes.length < NONCE_BYTES + TAG_BITS / 8 + 1) {
      throw new SealedTokenRefused("the stored token of " + link + " is cut short (" + bytes.length
          + " bytes); sign in to the tracker again");
    }
    try {
      Cipher cipher = Cipher.getInstance(CIPHER);
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
      cipher.updateAAD(aad);
      byte[] plain = cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
      return new Secret(new String(plain, StandardCharsets.UTF_8));
    } catch (AEADBadTagException e) {
      throw new SealedTokenRefused("the stored token of " + link + " does not open: it was changed, sealed for "
          + "another user or tracker, or with another " + KEY_FILE + " file; sign in to the tracker again");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this Java runtime cannot open " + CIPHER + " values", e);
    }
  }

  /**
   * The signature of a pending sign-in's cookie value: base64url of its HMAC-SHA-256 under the cookie key. Every reader
   * holding the same key file makes and accepts the same signatures.
   */
  public String cookieSignature(String value) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(mac(cookieKey,
        value.getBytes(StandardCharsets.UTF_8)));
  }

  /** Whether {@code signature} is {@link #cookieSignature} of {@code value}, compared in constant time. */
  public boolean signedCookie(String value, String signature) {
    return value != null && signature != null && MessageDigest.isEqual(
        cookieSignature(value).getBytes(StandardCharsets.US_ASCII), signature.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] mac(SecretKey macKey, byte[] data) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(macKey);
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this Java runtime cannot compute " + MAC, e);
    }
  }

  /**
   * What a sealed token is bound to besides the key: a value copied into another user's or tracker's row fails its
   * tag instead of handing that link someone else's account.
   */
  private static byte[] associatedData(long userId, String tracker) {
    Objects.requireNonNull(tracker, "tracker");
    if (!TRACKER_NAME.matcher(tracker).matches()) {
      throw new IllegalArgumentException("a tracker name is lower-case letters, digits and '-': " + tracker);
    }
    return ("mangacircus tracker token\n" + VERSION + "\nuser " + userId + "\ntracker " + tracker)
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Reads an existing key, refusing anything but 32 bytes only its owner can read: a regenerated key would make every
   * stored token unreadable, and a key others can read lets them open every token.
   */
  private static byte[] read(Path file) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new KeyFileRefused(file, "is not a regular file (a folder or a link); move it away and restart, and "
          + "every reader links their trackers again");
    }
    try {
      PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class,
          LinkOption.NOFOLLOW_LINKS);
      if (posix != null) {
        Set<PosixFilePermission> wider = EnumSet.copyOf(posix.readAttributes().permissions());
        wider.retainAll(NOT_OWNER);
        if (!wider.isEmpty()) {
          throw new KeyFileRefused(file, "may be read or changed by others than its owner (" + wider + "): anyone who "
              + "read it can open every stored tracker token. Run 'chmod 600 " + file + "' and restart; if others "
              + "may have copied it, move it away instead and have every reader link their trackers again");
        }
      }
      long size = Files.size(file);
      byte[] bytes = size == KEY_BYTES ? Files.readAllBytes(file) : new byte[0];
      if (bytes.length != KEY_BYTES) {
        throw new KeyFileRefused(file, "holds " + size + " bytes, not the " + KEY_BYTES + " of a key; restore it "
            + "from a backup of the data folder, or move it away and restart, and every reader links their "
            + "trackers again (tokens sealed with the old key cannot be opened)");
      }
      return bytes;
    } catch (IOException e) {
      throw new KeyFileRefused(file, "cannot be read (" + e + "); give the reader's user access to it and restart");
    }
  }

  /**
   * Writes a new random key beside the key file, durably and 0600, and links it in under the key's name: the name
   * appears with the whole key or not at all, so a crash never leaves an empty key that would refuse every start.
   * Two vaults on one data folder should not create at once (the product builds one).
   */
  private static byte[] create(Path file, SecureRandom random) {
    byte[] bytes = new byte[KEY_BYTES];
    random.nextBytes(bytes);
    Path pending = file.resolveSibling(KEY_FILE + ".new");
    try {
      // Left by a creation cut short: its key never sealed anything.
      DurableFiles.delete(pending);
      DurableFiles.createOwnerOnlyFile(pending);
      try (FileChannel channel = FileChannel.open(pending, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      try {
        DurableFiles.link(file, pending);
      } catch (FileAlreadyExistsException e) {
        // Created meanwhile by another start: that key is the one to use, and it is never replaced.
        DurableFiles.delete(pending);
        return read(file);
      } catch (UnsupportedOperationException | FileSystemException e) {
        // No hard links here: a rename without replacing, the key's absence having just been checked.
        DurableFiles.rename(pending, file, false);
        return bytes;
      }
      DurableFiles.delete(pending);
      return bytes;
    } catch (IOException e) {
      throw new KeyFileRefused(file, "cannot be created (" + e + "); make the data folder writable by the reader's "
          + "user and restart");
    }
  }

  /** The key file is unusable; the message names it and what to do. The file is never changed by the vault. */
  public static final class KeyFileRefused extends RuntimeException {

    KeyFileRefused(Path file, String problem) {
      super("the tracker token key " + file + " " + problem);
    }

    private KeyFileRefused(String message) {
      super(message);
    }
  }

  /** A stored token does not open; the message names the user and tracker, never the stored value or the token. */
  public static final class SealedTokenRefused extends RuntimeException {

    SealedTokenRefused(String message) {
      super(message);
    }
  }
}
