package io.mangacircus.reader.library.collection;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Ids of a collection's series and books: a readable slug of the name and a short hash of the path relative to the
 * collection's root ({@code one-piece-3f9a0c12be41}). Derived from the path alone, an id needs no stored state to
 * survive a rescan or a restart, and two things with the same name in different places get different ids. One path
 * segment of {@code [a-z0-9-]} (no '/', no '.', so never {@code ..}), it is safe in URLs and as a folder name under the
 * data folder. Renaming or moving a folder changes its id, as it changes what the admin sees.
 */
public final class CollectionIds {

  // 48 bits: collisions stay unlikely below millions of books (birthday bound ~ 2^24), and ids stay short.
  private static final int HASH_BYTES = 6;
  private static final int SLUG_LENGTH = 40;

  private CollectionIds() {
  }

  /** The id of the series at {@code path} (a top-level folder or loose archive) named {@code title}. */
  public static String series(String path, String title) {
    return id("series", path, title);
  }

  /** The id of the book at {@code path} named {@code title}. */
  public static String book(String path, String title) {
    return id("book", path, title);
  }

  // The kind is hashed too: a loose archive is both a series and its one book, at the same path.
  private static String id(String kind, String path, String title) {
    String slug = slug(title);
    String hash = hash(kind + ":" + Normalizer.normalize(path, Normalizer.Form.NFC));
    return slug.isEmpty() ? hash : slug + "-" + hash;
  }

  /** Lower-case ASCII letters and digits of the name, accents dropped, other runs as one '-'; may be empty. */
  static String slug(String name) {
    String plain = Normalizer.normalize(name, Normalizer.Form.NFKD).toLowerCase(Locale.ROOT);
    StringBuilder slug = new StringBuilder();
    boolean dash = false;
    for (int i = 0; i < plain.length() && slug.length() < SLUG_LENGTH; i++) {
      char c = plain.charAt(i);
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        if (dash && slug.length() > 0) {
          slug.append('-');
        }
        slug.append(c);
        dash = false;
      } else if (Character.getType(c) != Character.NON_SPACING_MARK) {
        dash = true;
      }
    }
    return slug.toString();
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, HASH_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
