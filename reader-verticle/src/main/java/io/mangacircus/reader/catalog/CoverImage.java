package io.mangacircus.reader.catalog;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * Decides whether uploaded bytes are a complete cover image: JPEG or PNG by their magic bytes, a PNG with its end
 * chunk, at most {@link #MAX_SIDE} pixels a side, and a full decode during which the decoder reports nothing amiss.
 * A truncated JPEG still "decodes" (the decoder fills the missing part with grey) but warns that its end-of-image
 * marker is missing, so a warning refuses it; bytes after a complete JPEG (some cameras append data) are accepted.
 */
public final class CoverImage {

  /** The widest or tallest cover accepted, in pixels. */
  public static final int MAX_SIDE = 10_000;

  /** Decoding reads every compressed byte but keeps only every 4th pixel: damage still fails, memory stays small. */
  private static final int SUBSAMPLING = 4;

  private static final byte[] PNG_END = {'I', 'E', 'N', 'D', (byte) 0xAE, 'B', 0x60, (byte) 0x82};

  /** A verdict: the file extension to store the cover under, or why it was refused. */
  public record Verdict(String extension, String refusal) {
    public boolean valid() {
      return refusal == null;
    }

    static Verdict refused(String why) {
      return new Verdict(null, why);
    }
  }

  static {
    ImageIO.setUseCache(false);
  }

  private CoverImage() {
  }

  /** "jpg" or "png" by magic bytes, else null. */
  public static String extensionOf(byte[] head) {
    if (head.length >= 3 && (head[0] & 0xff) == 0xFF && (head[1] & 0xff) == 0xD8 && (head[2] & 0xff) == 0xFF) {
      return "jpg";
    }
    if (head.length >= 8 && (head[0] & 0xff) == 0x89 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G'
        && head[4] == 0x0D && head[5] == 0x0A && head[6] == 0x1A && head[7] == 0x0A) {
      return "png";
    }
    return null;
  }

  /** Checks a whole upload. Blocking (it decodes): call it off the event loop. */
  public static Verdict check(byte[] bytes) {
    String extension = extensionOf(bytes);
    if (extension == null) {
      return Verdict.refused("send a JPEG or PNG image (at most 8 MiB) as the request body");
    }
    String format = extension.equals("jpg") ? "JPEG" : "PNG";
    if (extension.equals("png") && !contains(bytes, PNG_END)) {
      return Verdict.refused("the PNG is truncated (it has no end chunk)");
    }
    List<String> warnings = new ArrayList<>();
    try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        return Verdict.refused("the " + format + " cannot be decoded here");
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
        int width = reader.getWidth(0);
        int height = reader.getHeight(0);
        if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
          return Verdict.refused("the " + format + " is " + width + "×" + height + " pixels; a cover may be at most "
              + MAX_SIDE + " a side");
        }
        ImageReadParam param = reader.getDefaultReadParam();
        param.setSourceSubsampling(SUBSAMPLING, SUBSAMPLING, 0, 0);
        BufferedImage image = reader.read(0, param);
        if (image == null) {
          return Verdict.refused("the " + format + " does not decode");
        }
      } finally {
        reader.dispose();
      }
    } catch (IOException | RuntimeException e) {
      return Verdict.refused("the " + format + " does not decode: " + e.getMessage());
    }
    if (!warnings.isEmpty()) {
      return Verdict.refused("the " + format + " is truncated or damaged: " + String.join("; ", warnings));
    }
    return new Verdict(extension, null);
  }

  private static boolean contains(byte[] bytes, byte[] part) {
    for (int start = bytes.length - part.length; start >= 0; start--) {
      int i = 0;
      while (i < part.length && bytes[start + i] == part[i]) {
        i++;
      }
      if (i == part.length) {
        return true;
      }
    }
    return false;
  }
}
