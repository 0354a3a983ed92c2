package io.mangacircus.scraper.validate;

import static io.mangacircus.scraper.validate.ImageBytes.u8;

/**
 * Walks an image file's container structure to its end without decoding a pixel: JPEG segments and entropy-coded
 * data to the end-of-image marker, PNG chunks with their CRCs to IEND, GIF blocks and sub-blocks to the trailer, WebP
 * RIFF and VP8/VP8L/VP8X chunk sizes, AVIF/HEIF (ISO-BMFF) box sizes. Reads width and height from the headers and
 * refuses placeholders and absurd sizes. One pass over the bytes, nothing copied (docs/downloads.md, "Validation").
 * Names the format by its signature and hands the bytes to that format's walker; holds the verdicts they share.
 */
public final class ImageStructure {

  /** Signatures {@link #signature} names. */
  public static final String JPEG = "JPEG";
  public static final String PNG = "PNG";
  public static final String GIF = "GIF";
  public static final String WEBP = "WEBP";
  public static final String ISO_MEDIA = "ISO_MEDIA";

  /** The smallest side a page may have, in pixels: anything smaller is a placeholder or a spacer, not a page. */
  static final int MIN_SIDE = 16;
  /** The largest side a page may have, in pixels. */
  static final int MAX_SIDE = 30_000;

  /**
   * What the walk found: the format's name and file extension with the image's size, or why the bytes were refused.
   * A null result from {@link #walk} means the bytes are none of the known formats.
   */
  record Shape(String format, String extension, int width, int height, String refusal) {
    boolean valid() {
      return refusal == null;
    }
  }

  private ImageStructure() {
  }

  /** The walk of {@code bytes}, or null when their first bytes are no known image format's. */
  static Shape walk(byte[] bytes) {
    String signature = signature(bytes);
    if (signature == null) {
      return null;
    }
    return switch (signature) {
      case JPEG -> JpegWalker.walk(bytes);
      case PNG -> PngWalker.walk(bytes);
      case GIF -> GifWalker.walk(bytes);
      case WEBP -> WebpWalker.walk(bytes);
      default -> IsoMediaWalker.walk(bytes);
    };
  }

  /**
   * The image format whose signature {@code bytes} start with ({@link #JPEG}, {@link #PNG}, {@link #GIF},
   * {@link #WEBP} or {@link #ISO_MEDIA} for AVIF/HEIF), or null for none; nothing beyond the first 12 bytes is read.
   */
  public static String signature(byte[] bytes) {
    int n = bytes.length;
    if (n >= 3 && u8(bytes, 0) == 0xFF && u8(bytes, 1) == 0xD8 && u8(bytes, 2) == 0xFF) {
      return JPEG;
    }
    if (n >= 8 && u8(bytes, 0) == 0x89 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G'
        && bytes[4] == 0x0D && bytes[5] == 0x0A && bytes[6] == 0x1A && bytes[7] == 0x0A) {
      return PNG;
    }
    if (n >= 6 && bytes[0] == 'G' && bytes[1] == 'I' && bytes[2] == 'F' && bytes[3] == '8'
        && (bytes[4] == '7' || bytes[4] == '9') && bytes[5] == 'a') {
      return GIF;
    }
    if (n >= 12 && bytes[0] == 'R' && bytes[1] == 'I' && bytes[2] == 'F' && bytes[3] == 'F'
        && bytes[8] == 'W' && bytes[9] == 'E' && bytes[10] == 'B' && bytes[11] == 'P') {
      return WEBP;
    }
    if (n >= 12 && bytes[4] == 'f' && bytes[5] == 't' && bytes[6] == 'y' && bytes[7] == 'p') {
      return ISO_MEDIA;
    }
    return null;
  }

  // ---- verdicts ---------------------------------------------------------------------------------------------------

  /** Why a page of this size is refused, or null. */
  static String sides(String format, int width, int height) {
    if (width == 1 && height == 1) {
      return format + " is a 1×1 placeholder (a tracking pixel or blank), not a page";
    }
    if (width < MIN_SIDE || height < MIN_SIDE) {
      return format + " is " + width + "×" + height + " px: too small for a page (at least " + MIN_SIDE
          + " px a side)";
    }
    if (width > MAX_SIDE || height > MAX_SIDE) {
      return format + " is " + width + "×" + height + " px: too large for a page (at most " + MAX_SIDE
          + " px a side)";
    }
    return null;
  }

  static Shape sized(String format, String extension, int width, int height) {
    return new Shape(format, extension, width, height, null);
  }

  static Shape refused(String why) {
    return new Shape(null, null, -1, -1, why);
  }

  static Shape truncated(String format, String detail) {
    return refused(format + " is truncated (" + detail + ")");
  }

  static Shape damaged(String format, String detail) {
    return refused(format + " is damaged: " + detail);
  }
}
