package io.mangacircus.scraper.validate;

import static io.mangacircus.scraper.validate.ImageBytes.fourCc;
import static io.mangacircus.scraper.validate.ImageBytes.i32be;
import static io.mangacircus.scraper.validate.ImageBytes.name;
import static io.mangacircus.scraper.validate.ImageBytes.u16be;
import static io.mangacircus.scraper.validate.ImageBytes.u32be;
import static io.mangacircus.scraper.validate.ImageBytes.u64be;
import static io.mangacircus.scraper.validate.ImageBytes.u8;
import static io.mangacircus.scraper.validate.ImageStructure.damaged;
import static io.mangacircus.scraper.validate.ImageStructure.refused;
import static io.mangacircus.scraper.validate.ImageStructure.sides;
import static io.mangacircus.scraper.validate.ImageStructure.sized;
import static io.mangacircus.scraper.validate.ImageStructure.truncated;

import io.mangacircus.scraper.validate.ImageStructure.Shape;

/**
 * Walks an AVIF or HEIF file (ISO base media file format) box by box: the file type box's brands name the format,
 * the meta box gives the size ({@code ispe}) and where the item data lies ({@code iloc}), which must be inside the file.
 */
final class IsoMediaWalker {

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

  private IsoMediaWalker() {
  }

  static Shape walk(byte[] b) {
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
        long base = field(b, at, baseSize);
        at += baseSize;
        int extents = u16be(b, at);
        at += 2;
        for (int e = 0; e < extents; e++) {
          at += indexSize;
          long offset = field(b, at, offsetSize);
          at += offsetSize;
          long length = field(b, at, lengthSize);
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
  private static long field(byte[] b, int at, int size) {
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
}
