package io.mangacircus.scraper.publish;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.awt.image.BufferedImage;
import java.util.Locale;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

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

  static {
    // ImageIO otherwise buffers every decode through a temporary file, a syscall storm per page for nothing.
    ImageIO.setUseCache(false);
  }

  /** Decoding reads every compressed byte but keeps only every 4th pixel: corruption still fails, copies are cheap. */
  private static final int SUBSAMPLING = 4;

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
    String format = extension.toUpperCase(Locale.ROOT);
    try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        return Verdict.refused(format + " has no decoder here");
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        ImageReadParam param = reader.getDefaultReadParam();
        param.setSourceSubsampling(SUBSAMPLING, SUBSAMPLING, 0, 0);
        BufferedImage image = reader.read(0, param);
        if (image == null || reader.getWidth(0) < 1 || reader.getHeight(0) < 1) {
          return Verdict.refused(format + " does not decode");
        }
      } finally {
        reader.dispose();
      }
    } catch (IOException | RuntimeException e) {
      return Verdict.refused(format + " does not decode: " + e.getMessage());
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
