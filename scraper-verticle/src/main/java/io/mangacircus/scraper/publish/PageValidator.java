package io.mangacircus.scraper.publish;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.awt.image.BufferedImage;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Decides whether fetched bytes are a complete page image: declared image type, matching magic bytes, a complete
 * file (JPEG end marker, PNG end chunk) and a full decode. An HTML error page served with 200 is not a page.
 */
public final class PageValidator {

  /** A verdict: the file extension to store it under, or why it was refused. */
  public record Verdict(String extension, String refusal) {
    public boolean valid() {
      return refusal == null;
    }

    static Verdict refused(String why) {
      return new Verdict(null, why);
    }
  }

  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  private static final byte[] PNG_END = {'I', 'E', 'N', 'D', (byte) 0xAE, 'B', 0x60, (byte) 0x82};

  private PageValidator() {
  }

  /** Checks a page body and its declared content type. */
  public static Verdict check(String contentType, byte[] bytes) {
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    if (!type.isEmpty() && !type.startsWith("image/") && !type.equals("application/octet-stream")) {
      return Verdict.refused("content type " + contentType + " is not an image");
    }
    if (bytes.length < 16) {
      return Verdict.refused("only " + bytes.length + " bytes");
    }
    String extension;
    if ((bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xD8 && (bytes[2] & 0xFF) == 0xFF) {
      if ((bytes[bytes.length - 2] & 0xFF) != 0xFF || (bytes[bytes.length - 1] & 0xFF) != 0xD9) {
        return Verdict.refused("JPEG is truncated (no end-of-image marker)");
      }
      extension = "jpg";
    } else if (startsWith(bytes, PNG)) {
      if (!endsWith(bytes, PNG_END)) {
        return Verdict.refused("PNG is truncated (no IEND chunk)");
      }
      extension = "png";
    } else if (startsWith(bytes, "GIF8".getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
      extension = "gif";
    } else if (startsWith(bytes, "RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
        && bytes[8] == 'W' && bytes[9] == 'E' && bytes[10] == 'B' && bytes[11] == 'P') {
      return new Verdict("webp", null);
    } else {
      return Verdict.refused("bytes are not a JPEG, PNG, GIF or WebP image"
          + (looksLikeHtml(bytes) ? " (looks like an HTML page)" : ""));
    }
    try {
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
      if (image == null || image.getWidth() < 1 || image.getHeight() < 1) {
        return Verdict.refused(extension.toUpperCase(Locale.ROOT) + " does not decode");
      }
    } catch (IOException | RuntimeException e) {
      return Verdict.refused(extension.toUpperCase(Locale.ROOT) + " does not decode: " + e.getMessage());
    }
    return new Verdict(extension, null);
  }

  private static boolean looksLikeHtml(byte[] bytes) {
    String head = new String(bytes, 0, Math.min(bytes.length, 256), java.nio.charset.StandardCharsets.ISO_8859_1)
        .trim().toLowerCase(Locale.ROOT);
    return head.startsWith("<!doctype html") || head.startsWith("<html") || head.contains("<body");
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    if (bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean endsWith(byte[] bytes, byte[] suffix) {
    if (bytes.length < suffix.length) {
      return false;
    }
    int offset = bytes.length - suffix.length;
    for (int i = 0; i < suffix.length; i++) {
      if (bytes[offset + i] != suffix[i]) {
        return false;
      }
    }
    return true;
  }
}
