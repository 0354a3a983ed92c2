package io.mangacircus.scraper.publish;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Walks an image file's container structure to its end without decoding a pixel: JPEG segments and entropy-coded
 * data to the end-of-image marker, PNG chunks with their CRCs to IEND, GIF blocks and sub-blocks to the trailer, WebP
 * RIFF and VP8/VP8L/VP8X chunk sizes, AVIF/HEIF (ISO-BMFF) box sizes. Reads width and height from the headers and
 * refuses placeholders and absurd sizes. One pass over the bytes, nothing copied (docs/downloads.md, "Validation").
 */
public final class ImageStructure {

  /** Signatures {@link #signature} names. */
  public static final String JPEG = "JPEG";
  public static final String PNG = "PNG";
  public static final String GIF = "GIF";
  public static final String WEBP = "WEBP";
  public static final String ISO_MEDIA = "ISO_MEDIA";

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
      case JPEG -> jpeg(bytes);
      case PNG -> png(bytes);
      case GIF -> gif(bytes);
      case WEBP -> webp(bytes);
      default -> isoMedia(bytes);
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

  // ---- JPEG -------------------------------------------------------------------------------------------------------

  private static Shape jpeg(byte[] b) {
    int n = b.length;
    int p = 2;
    int width = -1;
    int height = -1;
    boolean scanned = false;
    while (true) {
      if (p >= n) {
        return truncated("JPEG", "no end-of-image marker");
      }
      if (u8(b, p) != 0xFF) {
        return damaged("JPEG", "expected a marker at byte " + p + ", found " + hex(u8(b, p)));
      }
      while (p < n && u8(b, p) == 0xFF) {
        p++; // fill bytes before a marker
      }
      if (p >= n) {
        return truncated("JPEG", "no end-of-image marker");
      }
      int marker = u8(b, p++);
      if (marker == 0xD9) {
        // Whatever follows the end-of-image marker (padding, a camera's trailer) is not part of the image.
        return scanned ? sized("JPEG", "jpg", width, height)
            : damaged("JPEG", "it ends before any image data (no scan)");
      }
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
        continue; // markers without a length
      }
      if (marker == 0x00 || marker == 0xD8) {
        return damaged("JPEG", "unexpected marker 0xFF" + hex2(marker) + " at byte " + (p - 2));
      }
      if (p + 2 > n) {
        return truncated("JPEG", "no end-of-image marker");
      }
      int length = u16be(b, p);
      if (length < 2) {
        return damaged("JPEG", "segment 0xFF" + hex2(marker) + " at byte " + (p - 2) + " has a length of " + length);
      }
      if (p + length > n) {
        return truncated("JPEG", "segment 0xFF" + hex2(marker) + " at byte " + (p - 2) + " runs past the end");
      }
      if (isStartOfFrame(marker)) {
        if (length < 8) {
          return damaged("JPEG", "its frame header at byte " + (p - 2) + " is " + length + " bytes long");
        }
        height = u16be(b, p + 3);
        width = u16be(b, p + 5);
        String size = sides("JPEG", width, height);
        if (size != null) {
          return refused(size);
        }
      }
      p += length;
      if (marker == 0xDA) {
        if (width < 0) {
          return damaged("JPEG", "image data at byte " + (p - length - 2) + " comes before any frame header");
        }
        // Entropy-coded data: 0xFF is followed by 0x00 (a stuffed byte), a restart marker, more fill, or the marker
        // that ends the scan.
        while (true) {
          p = nextFf(b, p);
          if (p + 1 >= n) {
            return truncated("JPEG", "its image data has no end-of-image marker");
          }
          int next = u8(b, p + 1);
          if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) {
            p += 2;
          } else if (next == 0xFF) {
            p++;
          } else {
            break;
          }
        }
        scanned = true;
      }
    }
  }

  /** The position of the next 0xFF byte at or after {@code p}, or the length: eight bytes a step (SWAR). */
  private static int nextFf(byte[] b, int p) {
    int n = b.length;
    while (p + 8 <= n) {
      long inverted = ~(long) LONGS.get(b, p); // a 0xFF byte becomes a zero byte
      long zero = (inverted - 0x0101010101010101L) & ~inverted & 0x8080808080808080L;
      if (zero != 0) {
        return p + (Long.numberOfTrailingZeros(zero) >>> 3); // the lowest flag is exact
      }
      p += 8;
    }
    while (p < n && b[p] != (byte) 0xFF) {
      p++;
    }
    return p;
  }

  private static boolean isStartOfFrame(int marker) {
    return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
  }

  // ---- PNG --------------------------------------------------------------------------------------------------------

  private static final int IHDR = fourCc("IHDR");
  private static final int IDAT = fourCc("IDAT");
  private static final int IEND = fourCc("IEND");

  private static Shape png(byte[] b) {
    int n = b.length;
    int p = 8;
    CRC32 crc = new CRC32();
    int width = -1;
    int height = -1;
    boolean data = false;
    while (true) {
      if (p + 8 > n) {
        return truncated("PNG", "no IEND chunk");
      }
      long length = u32be(b, p);
      int type = i32be(b, p + 4);
      if (!letters(b, p + 4)) {
        return damaged("PNG", "the chunk at byte " + p + " has no valid name");
      }
      if (length > Integer.MAX_VALUE || p + 12L + length > n) {
        return truncated("PNG", "chunk " + name(b, p + 4) + " at byte " + p + " runs past the end; no IEND chunk");
      }
      int size = (int) length;
      crc.reset();
      crc.update(b, p + 4, 4 + size);
      if ((int) crc.getValue() != i32be(b, p + 8 + size)) {
        return damaged("PNG", "chunk " + name(b, p + 4) + " at byte " + p + " fails its CRC check");
      }
      if (width < 0) {
        if (type != IHDR || size != 13) {
          return damaged("PNG", "its first chunk is " + name(b, p + 4) + ", not a 13-byte IHDR");
        }
        long w = u32be(b, p + 8);
        long h = u32be(b, p + 12);
        width = (int) Math.min(w, Integer.MAX_VALUE);
        height = (int) Math.min(h, Integer.MAX_VALUE);
        String sizes = sides("PNG", width, height);
        if (sizes != null) {
          return refused(sizes);
        }
      } else if (type == IHDR) {
        return damaged("PNG", "a second IHDR chunk at byte " + p);
      } else if (type == IDAT) {
        data = true;
      } else if (type == IEND) {
        return data ? sized("PNG", "png", width, height) : damaged("PNG", "it has no image data (no IDAT chunk)");
      }
      p += 12 + size;
    }
  }

  private static boolean letters(byte[] b, int at) {
    for (int i = at; i < at + 4; i++) {
      int c = b[i] | 0x20;
      if (c < 'a' || c > 'z') {
        return false;
      }
    }
    return true;
  }

  // ---- GIF --------------------------------------------------------------------------------------------------------

  private static Shape gif(byte[] b) {
    int n = b.length;
    if (n < 13) {
      return truncated("GIF", "its screen descriptor is incomplete");
    }
    int width = u16le(b, 6);
    int height = u16le(b, 8);
    String sizes = sides("GIF", width, height);
    if (sizes != null) {
      return refused(sizes);
    }
    int p = 13;
    int flags = u8(b, 10);
    if ((flags & 0x80) != 0) {
      p += 3 << ((flags & 7) + 1);
    }
    int frames = 0;
    while (true) {
      if (p >= n) {
        return truncated("GIF", "no trailer");
      }
      int block = u8(b, p);
      if (block == 0x3B) {
        return frames > 0 ? sized("GIF", "gif", width, height) : damaged("GIF", "it holds no image");
      } else if (block == 0x21) {
        p = subBlocks(b, p + 2);
      } else if (block == 0x2C) {
        if (p + 10 > n) {
          return truncated("GIF", "image descriptor at byte " + p + " runs past the end");
        }
        int local = u8(b, p + 9);
        p += 10;
        if ((local & 0x80) != 0) {
          p += 3 << ((local & 7) + 1);
        }
        if (p >= n) {
          return truncated("GIF", "no trailer");
        }
        int codeSize = u8(b, p);
        if (codeSize < 1 || codeSize > 11) {
          return damaged("GIF", "image data at byte " + p + " has a code size of " + codeSize);
        }
        p = subBlocks(b, p + 1);
        frames++;
      } else {
        return damaged("GIF", "unknown block " + hex(block) + " at byte " + p);
      }
      if (p < 0) {
        return truncated("GIF", "a data block runs past the end; no trailer");
      }
    }
  }

  /** The position after a chain of data sub-blocks starting at {@code p}, or -1 when it runs past the end. */
  private static int subBlocks(byte[] b, int p) {
    int n = b.length;
    while (p < n) {
      int size = u8(b, p);
      p += 1 + size;
      if (size == 0) {
        return p;
      }
    }
    return -1;
  }

  // ---- WebP -------------------------------------------------------------------------------------------------------

  private static final int VP8 = fourCc("VP8 ");
  private static final int VP8L = fourCc("VP8L");
  private static final int VP8X = fourCc("VP8X");
  private static final int ANMF = fourCc("ANMF");

  private static Shape webp(byte[] b) {
    int n = b.length;
    long riff = u32le(b, 4);
    if (riff < 4) {
      return damaged("WebP", "its RIFF header gives a size of " + riff);
    }
    if (8 + riff > n) {
      return truncated("WebP", "its RIFF header announces " + (8 + riff) + " bytes, the file has " + n);
    }
    int end = (int) (8 + riff);
    int p = 12;
    int width = -1;
    int height = -1;
    boolean image = false;
    boolean first = true;
    while (p < end) {
      if (p + 8 > end) {
        return damaged("WebP", "a chunk header at byte " + p + " runs past the end of its RIFF container");
      }
      int type = i32be(b, p);
      long size = u32le(b, p + 4);
      int data = p + 8;
      if (data + size > end) {
        return damaged("WebP", "chunk " + name(b, p) + " at byte " + p + " runs past the end of its RIFF container");
      }
      int length = (int) size;
      if (type == VP8 || type == VP8L) {
        String problem = type == VP8 ? vp8(b, data, length) : vp8l(b, data, length);
        if (problem != null) {
          return damaged("WebP", name(b, p) + " chunk at byte " + p + ": " + problem);
        }
        if (first) {
          width = type == VP8 ? u16le(b, data + 6) & 0x3FFF : (int) (u32le(b, data + 1) & 0x3FFF) + 1;
          height = type == VP8 ? u16le(b, data + 8) & 0x3FFF : (int) ((u32le(b, data + 1) >>> 14) & 0x3FFF) + 1;
        }
        image = true;
      } else if (type == VP8X && first) {
        if (length < 10) {
          return damaged("WebP", "its VP8X chunk is " + length + " bytes long");
        }
        width = u24le(b, data + 4) + 1;
        height = u24le(b, data + 7) + 1;
      } else if (type == ANMF) {
        image = true;
      } else if (first) {
        return damaged("WebP", "its first chunk is " + name(b, p) + ", not VP8, VP8L or VP8X");
      }
      if (first) {
        String sizes = sides("WebP", width, height);
        if (sizes != null) {
          return refused(sizes);
        }
        first = false;
      }
      p = data + length + (length & 1);
    }
    return image ? sized("WebP", "webp", width, height)
        : damaged("WebP", "it holds no image data (no VP8, VP8L or ANMF chunk)");
  }

  /** What is wrong with a lossy (VP8) bitstream's key frame header, or null. */
  private static String vp8(byte[] b, int at, int length) {
    if (length < 10) {
      return "only " + length + " bytes";
    }
    int tag = u24le(b, at);
    if ((tag & 1) != 0) {
      return "not a key frame";
    }
    if (u8(b, at + 3) != 0x9D || u8(b, at + 4) != 0x01 || u8(b, at + 5) != 0x2A) {
      return "no VP8 start code";
    }
    int partition = tag >>> 5;
    if (partition > length - 10) {
      return "its first partition (" + partition + " bytes) runs past the chunk";
    }
    return null;
  }

  /** What is wrong with a lossless (VP8L) bitstream's header, or null. */
  private static String vp8l(byte[] b, int at, int length) {
    if (length < 5) {
      return "only " + length + " bytes";
    }
    if (u8(b, at) != 0x2F) {
      return "no VP8L signature";
    }
    if ((u8(b, at + 4) >>> 5) != 0) {
      return "unknown VP8L version " + (u8(b, at + 4) >>> 5);
    }
    return null;
  }

  // ---- AVIF / HEIF (ISO base media file format) --------------------------------------------------------------------

  private static final int FTYP = fourCc("ftyp");
  private static final int META = fourCc("meta");
  private static final int IPRP = fourCc("iprp");
  private static final int IPCO = fourCc("ipco");
  private static final int ISPE = fourCc("ispe");
  private static final int ILOC = fourCc("iloc");
  private static final int AVIF = fourCc("avif");
  private static final int AVIS = fourCc("avis");
  private static final int[] HEIF_BRANDS = {fourCc("heic"), fourCc("heix"), fourCc("heim"), fourCc("heis"),
      fourCc("hevc"), fourCc("hevx"), fourCc("mif1"), fourCc("msf1")};

  private static Shape isoMedia(byte[] b) {
    int n = b.length;
    String extension = null;
    String format = "AVIF";
    int width = -1;
    int height = -1;
    boolean meta = false;
    int p = 0;
    while (p < n) {
      if (p + 8 > n) {
        return truncated(format, "a box header at byte " + p + " runs past the end");
      }
      long size = u32be(b, p);
      int type = i32be(b, p + 4);
      int header = 8;
      if (size == 1) {
        if (p + 16 > n) {
          return truncated(format, "a box header at byte " + p + " runs past the end");
        }
        size = u64be(b, p + 8);
        header = 16;
      } else if (size == 0) {
        size = n - p; // the last box runs to the end of the file
      }
      if (size < header) {
        return damaged(format, "box " + name(b, p + 4) + " at byte " + p + " gives a size of " + size);
      }
      if (p + size > n) {
        return truncated(format, "box " + name(b, p + 4) + " at byte " + p + " announces " + size + " bytes, "
            + (n - p) + " are left");
      }
      int end = (int) (p + size);
      if (p == 0) {
        if (type != FTYP || size < 16) {
          return damaged(format, "it does not start with a file type box");
        }
        extension = brand(b, p + header, end);
        if (extension == null) {
          return refused("ISO media file with brand '" + name(b, p + 8)
              + "' is not an AVIF or HEIF image (a video?)");
        }
        format = extension.equals("avif") ? "AVIF" : "HEIF";
      } else if (type == META) {
        meta = true;
        long found = largestIspe(b, p + header + 4, end, 0);
        if (found == -2) {
          return damaged(format, "a box inside its meta box at byte " + p + " runs past its parent");
        }
        if (found >= 0) {
          width = (int) (found >>> 32);
          height = (int) found;
        }
        String outside = itemsOutside(b, p + header + 4, end);
        if (outside != null) {
          return outside.startsWith("!") ? damaged(format, outside.substring(1)) : truncated(format, outside);
        }
      }
      p = end;
    }
    if (!meta) {
      return truncated(format, "no meta box");
    }
    if (width < 0) {
      return refused(format + " gives no image size (no ispe property): not supported");
    }
    String sizes = sides(format, width, height);
    return sizes != null ? refused(sizes) : sized(format, extension, width, height);
  }

  /**
   * Where the item location box ({@code iloc}) among the meta box's children puts data outside the file: a message
   * for a truncated file, or one starting with '!' for a damaged box; null when every item lies inside the file.
   */
  private static String itemsOutside(byte[] b, int from, int end) {
    int p = from;
    while (p + 8 <= end) {
      long size = u32be(b, p);
      if (size < 8 || p + size > end) {
        return null; // reported by the ispe search
      }
      if (i32be(b, p + 4) == ILOC) {
        return ilocOutside(b, p + 8, (int) (p + size));
      }
      p += (int) size;
    }
    return null;
  }

  private static String ilocOutside(byte[] b, int at, int end) {
    try {
      int version = u8(b, at);
      int sizes = u8(b, at + 4);
      int moreSizes = u8(b, at + 5);
      int offsetSize = sizes >>> 4;
      int lengthSize = sizes & 0xF;
      int baseSize = moreSizes >>> 4;
      int indexSize = version == 1 || version == 2 ? moreSizes & 0xF : 0;
      at += 6;
      long items = version < 2 ? u16be(b, at) : u32be(b, at);
      at += version < 2 ? 2 : 4;
      for (long item = 0; item < items; item++) {
        at += version < 2 ? 2 : 4; // item ID
        int construction = 0;
        if (version == 1 || version == 2) {
          construction = u16be(b, at) & 0xF;
          at += 2;
        }
        at += 2; // data reference index
        long base = sized(b, at, baseSize);
        at += baseSize;
        int extents = u16be(b, at);
        at += 2;
        for (int e = 0; e < extents; e++) {
          at += indexSize;
          long offset = sized(b, at, offsetSize);
          at += offsetSize;
          long length = sized(b, at, lengthSize);
          at += lengthSize;
          if (at > end) {
            return "!its item location box runs past its end";
          }
          if (construction == 0 && (base + offset + length > b.length || base + offset < 0)) {
            return "its image data (" + length + " bytes at byte " + (base + offset) + ") runs past the end";
          }
        }
      }
      return null;
    } catch (ArrayIndexOutOfBoundsException e) {
      return "!its item location box runs past the end";
    }
  }

  /** An unsigned big-endian number of 0, 4 or 8 bytes (the sizes iloc allows). */
  private static long sized(byte[] b, int at, int size) {
    return switch (size) {
      case 0 -> 0;
      case 4 -> u32be(b, at);
      case 8 -> u64be(b, at);
      default -> throw new ArrayIndexOutOfBoundsException("iloc field size " + size);
    };
  }

  /** "avif" or "heic" by the file type box's brands (major and compatible), else null. */
  private static String brand(byte[] b, int from, int end) {
    boolean heif = false;
    for (int at = from; at + 4 <= end; at += 4) {
      if (at == from + 4) {
        continue; // the minor version
      }
      int brand = i32be(b, at);
      if (brand == AVIF || brand == AVIS) {
        return "avif";
      }
      for (int known : HEIF_BRANDS) {
        heif |= brand == known;
      }
    }
    return heif ? "heic" : null;
  }

  /**
   * The largest image spatial extent ({@code ispe}) under meta/iprp/ipco, as width in the high and height in the low
   * 32 bits; -1 when there is none, -2 when a child box runs past its parent.
   */
  private static long largestIspe(byte[] b, int from, int end, int depth) {
    long best = -1;
    int p = from;
    while (p + 8 <= end) {
      long size = u32be(b, p);
      int type = i32be(b, p + 4);
      if (size < 8 || p + size > end) {
        return -2;
      }
      int boxEnd = (int) (p + size);
      if ((depth == 0 && type == IPRP) || (depth == 1 && type == IPCO)) {
        long inner = largestIspe(b, p + 8, boxEnd, depth + 1);
        if (inner == -2) {
          return -2;
        }
        best = larger(best, inner);
      } else if (depth == 2 && type == ISPE && size >= 20) {
        best = larger(best, (u32be(b, p + 12) << 32) | u32be(b, p + 16));
      }
      p = boxEnd;
    }
    return best;
  }

  private static long larger(long a, long b) {
    if (a < 0) {
      return b;
    }
    if (b < 0) {
      return a;
    }
    return (a >>> 32) * (a & 0xFFFFFFFFL) >= (b >>> 32) * (b & 0xFFFFFFFFL) ? a : b;
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

  private static Shape sized(String format, String extension, int width, int height) {
    return new Shape(format, extension, width, height, null);
  }

  private static Shape refused(String why) {
    return new Shape(null, null, -1, -1, why);
  }

  private static Shape truncated(String format, String detail) {
    return refused(format + " is truncated (" + detail + ")");
  }

  private static Shape damaged(String format, String detail) {
    return refused(format + " is damaged: " + detail);
  }

  // ---- bytes ------------------------------------------------------------------------------------------------------

  private static int fourCc(String name) {
    byte[] b = name.getBytes(StandardCharsets.US_ASCII);
    return i32be(b, 0);
  }

  /** A four-character code for a message, non-printable bytes as '?'. */
  private static String name(byte[] b, int at) {
    StringBuilder out = new StringBuilder(4);
    for (int i = at; i < at + 4 && i < b.length; i++) {
      int c = u8(b, i);
      out.append(c >= 0x20 && c < 0x7F ? (char) c : '?');
    }
    return out.toString();
  }

  private static String hex(int value) {
    return "0x" + hex2(value);
  }

  private static String hex2(int value) {
    return String.format(Locale.ROOT, "%02X", value);
  }

  private static int u8(byte[] b, int at) {
    return b[at] & 0xFF;
  }

  private static int u16be(byte[] b, int at) {
    return (u8(b, at) << 8) | u8(b, at + 1);
  }

  private static int u16le(byte[] b, int at) {
    return u8(b, at) | (u8(b, at + 1) << 8);
  }

  private static int u24le(byte[] b, int at) {
    return u8(b, at) | (u8(b, at + 1) << 8) | (u8(b, at + 2) << 16);
  }

  private static int i32be(byte[] b, int at) {
    return (u8(b, at) << 24) | (u8(b, at + 1) << 16) | (u8(b, at + 2) << 8) | u8(b, at + 3);
  }

  private static long u32be(byte[] b, int at) {
    return i32be(b, at) & 0xFFFFFFFFL;
  }

  private static long u32le(byte[] b, int at) {
    return (u24le(b, at) | ((long) u8(b, at + 3) << 24)) & 0xFFFFFFFFL;
  }

  private static long u64be(byte[] b, int at) {
    return (u32be(b, at) << 32) | u32be(b, at + 4);
  }
}
