package io.mangacircus.scraper.validate;

import static io.mangacircus.scraper.validate.ImageBytes.fourCc;
import static io.mangacircus.scraper.validate.ImageBytes.i32be;
import static io.mangacircus.scraper.validate.ImageBytes.name;
import static io.mangacircus.scraper.validate.ImageBytes.u32be;
import static io.mangacircus.scraper.validate.ImageStructure.damaged;
import static io.mangacircus.scraper.validate.ImageStructure.refused;
import static io.mangacircus.scraper.validate.ImageStructure.sides;
import static io.mangacircus.scraper.validate.ImageStructure.sized;
import static io.mangacircus.scraper.validate.ImageStructure.truncated;

import io.mangacircus.scraper.validate.ImageStructure.Shape;
import java.util.zip.CRC32;

/** Walks a PNG's chunks to IEND, checking every chunk's CRC, reading the size from IHDR and requiring image data. */
final class PngWalker {

  private static final int IHDR = fourCc("IHDR");
  private static final int IDAT = fourCc("IDAT");
  private static final int IEND = fourCc("IEND");

  private PngWalker() {
  }

  static Shape walk(byte[] b) {
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
}
