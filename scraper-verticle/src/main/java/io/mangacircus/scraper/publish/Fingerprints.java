package io.mangacircus.scraper.publish;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** SHA-256 fingerprints: of a chapter (source, title, chapter, page manifest) and of page bytes. */
public final class Fingerprints {

  private Fingerprints() {
  }

  /** The chapter fingerprint that names its staging folder; any change of the manifest changes it. */
  public static String chapter(String source, String titleId, String chapterId, List<String> pageKeys) {
    StringBuilder text = new StringBuilder().append(source).append('\n').append(titleId).append('\n')
        .append(chapterId).append('\n');
    pageKeys.forEach(key -> text.append(key).append('\n'));
    return sha256(text.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Hex SHA-256 of bytes. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}
