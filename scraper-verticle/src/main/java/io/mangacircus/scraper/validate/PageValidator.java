package io.mangacircus.scraper.validate;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * Decides whether fetched bytes are a complete page image: declared image type, then a walk of the format's whole
 * structure with a sane size ({@link ImageStructure}), and in {@link Mode#DECODE} a full decode as well. An HTML error
 * page served with 200 is not a page.
 */
public final class PageValidator {

  /** How far a source's pages are checked: {@code "validation"} in its configuration (docs/sources.md). */
  public enum Mode {
    /** The format's structure walked to its end (sizes, CRCs, end markers) and the image's size; no decode. */
    STRUCTURE("structure"),
    /** The structure walk, then a full decode on the lanes' decode pool. */
    DECODE("decode");

    private final String wire;

    Mode(String wire) {
      this.wire = wire;
    }

    /** The configuration's word for it. */
    public String wire() {
      return wire;
    }

    /** The mode a configuration names, if any. */
    public static Optional<Mode> of(String wire) {
      for (Mode mode : values()) {
        if (mode.wire.equals(wire)) {
          return Optional.of(mode);
        }
      }
      return Optional.empty();
    }
  }

  /** A verdict: the file extension to store it under, or why it was refused. */
  public record Verdict(String extension, String refusal) {
    public boolean valid() {
      return refusal == null;
    }

    static Verdict refused(String why) {
      return new Verdict(null, why);
    }
  }

  static {
    // ImageIO otherwise buffers every decode through a temporary file, a syscall storm per page for nothing.
    ImageIO.setUseCache(false);
  }

  /** Decoding reads every compressed byte but keeps only every 4th pixel: corruption still fails, copies are cheap. */
  private static final int SUBSAMPLING = 4;

  private PageValidator() {
  }

  /** Checks a page body and its declared content type by the structure of its format (the default mode). */
  public static Verdict check(String contentType, byte[] bytes) {
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    if (!type.isEmpty() && !type.startsWith("image/") && !type.equals("application/octet-stream")) {
      return Verdict.refused("content type " + contentType + " is not an image");
    }
    if (bytes.length < 16) {
      return Verdict.refused("only " + bytes.length + " bytes");
    }
    ImageStructure.Shape shape = ImageStructure.walk(bytes);
    if (shape == null) {
      return Verdict.refused("bytes are not a JPEG, PNG, GIF, WebP or AVIF image"
          + (looksLikeHtml(bytes) ? " (looks like an HTML page)" : looksLikeJson(bytes) ? " (looks like JSON)" : ""));
    }
    return shape.valid() ? new Verdict(shape.extension(), null) : Verdict.refused(shape.refusal());
  }

  /** Checks a page in the given mode; {@link Mode#DECODE} decodes in the calling thread. */
  public static Verdict check(String contentType, byte[] bytes, Mode mode) {
    Verdict structure = check(contentType, bytes);
    return mode == Mode.DECODE && structure.valid() ? decode(structure, bytes) : structure;
  }

  /**
   * Decodes a page that passed {@link #check(String, byte[])}: refused when the decoder fails or reports damage (a
   * damaged JPEG still "decodes", filled with grey, but the decoder warns). Blocking and CPU-bound: call it on the
   * decode pool, never on an event loop.
   */
  public static Verdict decode(Verdict structure, byte[] bytes) {
    String extension = structure.extension();
    String format = switch (extension) {
      case "jpg" -> "jpeg";
      case "avif", "heic" -> null;
      default -> extension;
    };
    String name = extension.equals("jpg") ? "JPEG" : extension.equals("webp") ? "WebP"
        : extension.toUpperCase(Locale.ROOT);
    Iterator<ImageReader> readers = format == null ? null : ImageIO.getImageReadersByFormatName(format);
    if (readers == null || !readers.hasNext()) {
      return Verdict.refused(name + " cannot be decoded here (no decoder for it); this source's \"validation\" "
          + "must be \"structure\" for " + name + " pages");
    }
    List<String> warnings = new ArrayList<>(0);
    ImageReader reader = readers.next();
    try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
      reader.setInput(in, true, true);
      reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
      ImageReadParam param = reader.getDefaultReadParam();
      param.setSourceSubsampling(SUBSAMPLING, SUBSAMPLING, 0, 0);
      BufferedImage image = reader.read(0, param);
      if (image == null || reader.getWidth(0) < 1 || reader.getHeight(0) < 1) {
        return Verdict.refused(name + " does not decode");
      }
    } catch (IOException | RuntimeException e) {
      return Verdict.refused(name + " does not decode: " + (e.getMessage() != null ? e.getMessage()
          : e instanceof java.io.EOFException ? "its data ends too early" : e.getClass().getSimpleName()));
    } finally {
      reader.dispose();
    }
    if (!warnings.isEmpty()) {
      return Verdict.refused(name + " does not decode cleanly (damaged image data): " + String.join("; ", warnings));
    }
    return structure;
  }

  private static String head(byte[] bytes) {
    return new String(bytes, 0, Math.min(bytes.length, 256), StandardCharsets.ISO_8859_1).trim()
        .toLowerCase(Locale.ROOT);
  }

  private static boolean looksLikeHtml(byte[] bytes) {
    String head = head(bytes);
    return head.startsWith("<!doctype html") || head.startsWith("<html") || head.contains("<body");
  }

  private static boolean looksLikeJson(byte[] bytes) {
    String head = head(bytes);
    return head.startsWith("{") || head.startsWith("[");
  }
}
