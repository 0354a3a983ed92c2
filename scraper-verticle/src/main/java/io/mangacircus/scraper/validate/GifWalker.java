package io.mangacircus.scraper.validate;

import static io.mangacircus.scraper.validate.ImageBytes.hex;
import static io.mangacircus.scraper.validate.ImageBytes.u16le;
import static io.mangacircus.scraper.validate.ImageBytes.u8;
import static io.mangacircus.scraper.validate.ImageStructure.damaged;
import static io.mangacircus.scraper.validate.ImageStructure.refused;
import static io.mangacircus.scraper.validate.ImageStructure.sides;
import static io.mangacircus.scraper.validate.ImageStructure.sized;
import static io.mangacircus.scraper.validate.ImageStructure.truncated;

import io.mangacircus.scraper.validate.ImageStructure.Shape;

/** Walks a GIF's blocks and data sub-blocks to the trailer, reading the size from its screen descriptor. */
final class GifWalker {

  private GifWalker() {
  }

  static Shape walk(byte[] b) {
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
}
