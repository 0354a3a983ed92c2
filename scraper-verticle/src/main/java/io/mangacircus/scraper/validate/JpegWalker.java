package io.mangacircus.scraper.validate;

import static io.mangacircus.scraper.validate.ImageBytes.hex;
import static io.mangacircus.scraper.validate.ImageBytes.hex2;
import static io.mangacircus.scraper.validate.ImageBytes.u16be;
import static io.mangacircus.scraper.validate.ImageBytes.u8;
import static io.mangacircus.scraper.validate.ImageStructure.damaged;
import static io.mangacircus.scraper.validate.ImageStructure.refused;
import static io.mangacircus.scraper.validate.ImageStructure.sides;
import static io.mangacircus.scraper.validate.ImageStructure.sized;
import static io.mangacircus.scraper.validate.ImageStructure.truncated;

import io.mangacircus.scraper.validate.ImageStructure.Shape;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Walks a JPEG's segments and entropy-coded data to the end-of-image marker, reading the size from its frame header;
 * whatever follows the end-of-image marker is ignored.
 */
final class JpegWalker {

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private JpegWalker() {
  }

  static Shape walk(byte[] b) {
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
}
