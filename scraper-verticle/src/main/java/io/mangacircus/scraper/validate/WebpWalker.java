package io.mangacircus.scraper.validate;

import static io.mangacircus.scraper.validate.ImageBytes.fourCc;
import static io.mangacircus.scraper.validate.ImageBytes.i32be;
import static io.mangacircus.scraper.validate.ImageBytes.name;
import static io.mangacircus.scraper.validate.ImageBytes.u16le;
import static io.mangacircus.scraper.validate.ImageBytes.u24le;
import static io.mangacircus.scraper.validate.ImageBytes.u32le;
import static io.mangacircus.scraper.validate.ImageBytes.u8;
import static io.mangacircus.scraper.validate.ImageStructure.damaged;
import static io.mangacircus.scraper.validate.ImageStructure.refused;
import static io.mangacircus.scraper.validate.ImageStructure.sides;
import static io.mangacircus.scraper.validate.ImageStructure.sized;
import static io.mangacircus.scraper.validate.ImageStructure.truncated;

import io.mangacircus.scraper.validate.ImageStructure.Shape;

/**
 * Walks a WebP's RIFF container and its chunk sizes, checking the VP8 or VP8L bitstream header and reading the size
 * from the first VP8, VP8L or VP8X chunk.
 */
final class WebpWalker {

  private static final int VP8 = fourCc("VP8 ");
  private static final int VP8L = fourCc("VP8L");
  private static final int VP8X = fourCc("VP8X");
  private static final int ANMF = fourCc("ANMF");

  private WebpWalker() {
  }

  static Shape walk(byte[] b) {
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
}
