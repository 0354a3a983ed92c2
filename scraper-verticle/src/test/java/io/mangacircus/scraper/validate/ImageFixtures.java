package io.mangacircus.scraper.validate;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;

/**
 * Real image bytes of every format a page may have, made here (JPEG, PNG, GIF by the JDK's encoders, a lossless WebP
 * and an AVIF container assembled byte by byte) or shipped under {@code src/test/resources/images} (a lossy WebP).
 */
final class ImageFixtures {

  private ImageFixtures() {
  }

  /** An image of the given size drawn with a gradient and a few lines, encoded by the JDK ("jpg", "png", "gif"). */
  static byte[] encoded(String format, int width, int height) {
    BufferedImage image = new BufferedImage(width, height,
        format.equals("gif") ? BufferedImage.TYPE_BYTE_INDEXED : BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    for (int y = 0; y < height; y++) {
      g.setColor(new Color(y * 255 / height, 90, 255 - y * 255 / height));
      g.drawLine(0, y, width - 1, y);
    }
    g.setColor(Color.WHITE);
    for (int i = 0; i < width; i += 8) {
      g.drawLine(i, 0, width - 1 - i, height - 1);
    }
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(image, format, out)) {
        throw new IllegalArgumentException("no writer for " + format);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static byte[] jpeg(int width, int height) {
    return encoded("jpg", width, height);
  }

  static byte[] png(int width, int height) {
    return encoded("png", width, height);
  }

  static byte[] gif(int width, int height) {
    return encoded("gif", width, height);
  }

  /**
   * A real lossy WebP with alpha (VP8X + ALPH + "VP8 " chunks), 16×16: CPython's test image {@code python.webp}
   * (Lib/test/test_email/data, PSF licence), 432 bytes.
   */
  static byte[] lossyWebp() {
    try (InputStream in = ImageFixtures.class.getResourceAsStream("/images/lossy-alpha-16x16.webp")) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A lossless WebP of one colour, assembled by hand (the WebP lossless bitstream specification, RFC 9649 §3-§6).
   * After the RIFF and "VP8L" chunk headers, the bitstream, least significant bit first: the signature 0x2F; width-1
   * and height-1 in 14 bits each; alpha_is_used (1 bit, 0) and version (3 bits, 0); no transform (1 bit, 0); no colour
   * cache (1 bit, 0); no meta prefix codes (1 bit, 0); then the five prefix codes (green, red, blue, alpha, distance),
   * each a "simple" code of one symbol (bits 1, 0, then 1 and an 8-bit symbol, or 0 and a 1-bit symbol). A code of one
   * symbol costs no bits per pixel, so the pixels themselves take no bytes: every pixel is that one colour.
   */
  static byte[] losslessWebp(int width, int height, int red, int green, int blue) {
    Bits bits = new Bits();
    bits.put(0x2F, 8);
    bits.put(width - 1, 14);
    bits.put(height - 1, 14);
    bits.put(0, 1);
    bits.put(0, 3);
    bits.put(0, 1); // no transform
    bits.put(0, 1); // no colour cache
    bits.put(0, 1); // one prefix code group for the whole image
    for (int symbol : new int[] {green, red, blue, 255}) {
      bits.put(1, 1); // simple code
      bits.put(0, 1); // one symbol
      bits.put(1, 1); // 8-bit symbol
      bits.put(symbol, 8);
    }
    bits.put(1, 1); // distance: simple code
    bits.put(0, 1); // one symbol
    bits.put(0, 1); // 1-bit symbol
    bits.put(0, 1); // distance code 0 (never used)
    // TwelveMonkeys' reader fetches the bitstream 8 bytes at a time: 8 zero bytes follow it (decoders ignore them).
    byte[] stream = concat(bits.bytes(), new byte[8]);
    return riff(chunk("VP8L", stream));
  }

  /**
   * A structurally complete lossy WebP ("VP8 " key frame header with its start code, sizes and first partition
   * length), but with made-up compressed data: for the structure walk only, no decoder would accept it.
   */
  static byte[] lossyWebpHeaderOnly(int width, int height) {
    int partition = 20;
    ByteBuffer vp8 = ByteBuffer.allocate(10 + partition + 30).order(ByteOrder.LITTLE_ENDIAN);
    int tag = (partition << 5) | (1 << 4); // key frame (bit 0 = 0), version 0, shown
    vp8.put((byte) tag).put((byte) (tag >> 8)).put((byte) (tag >> 16));
    vp8.put((byte) 0x9D).put((byte) 0x01).put((byte) 0x2A);
    vp8.putShort((short) width).putShort((short) height);
    return riff(chunk("VP8 ", vp8.array()));
  }

  /**
   * A minimal AVIF container assembled by hand (ISO/IEC 14496-12 boxes, as libavif writes them): ftyp (avif, mif1,
   * miaf), meta (hdlr pict, pitm, iloc pointing into mdat, iinf with one av01 item, iprp/ipco with ispe and ipma),
   * mdat. The AV1 payload is made up: for the structure walk only.
   */
  static byte[] avif(int width, int height) {
    byte[] payload = new byte[64];
    for (int i = 0; i < payload.length; i++) {
      payload[i] = (byte) (i * 7);
    }
    byte[] ftyp = box("ftyp", concat(ascii("avif"), u32(0), ascii("avif"), ascii("mif1"), ascii("miaf")));
    byte[] hdlr = fullBox("hdlr", concat(u32(0), ascii("pict"), new byte[12], new byte[] {0}));
    byte[] pitm = fullBox("pitm", u16(1));
    byte[] infe = box("infe", concat(new byte[] {2, 0, 0, 0}, u16(1), u16(0), ascii("av01"), new byte[] {0}));
    byte[] iinf = fullBox("iinf", concat(u16(1), infe));
    byte[] ispe = fullBox("ispe", concat(u32(width), u32(height)));
    byte[] ipco = box("ipco", ispe);
    byte[] ipma = fullBox("ipma", concat(u32(1), u16(1), new byte[] {1, (byte) 0x81}));
    byte[] iprp = box("iprp", concat(ipco, ipma));
    // iloc version 0: offset_size 4, length_size 4, base_offset_size 0; one item, one extent (offset fixed below).
    byte[] ilocBody = concat(new byte[] {0x44, 0x00}, u16(1), u16(1), u16(0), u16(1), u32(0), u32(payload.length));
    byte[] iloc = fullBox("iloc", ilocBody);
    byte[] meta = fullBox("meta", concat(hdlr, pitm, iloc, iinf, iprp));
    int mdatData = ftyp.length + meta.length + 8;
    // The extent offset is the iloc body's last-but-one field: patch it to where the payload lands.
    int extentAt = ftyp.length + 12 + hdlr.length + pitm.length + 12 + ilocBody.length - 8;
    byte[] file = concat(ftyp, meta, box("mdat", payload));
    ByteBuffer.wrap(file).putInt(extentAt, mdatData);
    return file;
  }

  /** The PNG with one bit of its first IDAT chunk's data flipped (its CRC no longer matches). */
  static byte[] bitFlippedPng(byte[] png) {
    byte[] copy = png.clone();
    int p = 8;
    while (true) {
      int length = ByteBuffer.wrap(copy, p, 4).getInt();
      String type = new String(copy, p + 4, 4, StandardCharsets.US_ASCII);
      if (type.equals("IDAT")) {
        copy[p + 8 + length / 2] ^= 0x10;
        return copy;
      }
      p += 12 + length;
    }
  }

  /** The PNG with a valid-CRC chunk replaced: for building PNGs whose IHDR says another size. */
  static byte[] pngWithSize(byte[] png, int width, int height) {
    byte[] copy = png.clone();
    ByteBuffer buffer = ByteBuffer.wrap(copy);
    buffer.putInt(16, width).putInt(20, height);
    CRC32 crc = new CRC32();
    crc.update(copy, 12, 17);
    buffer.putInt(29, (int) crc.getValue());
    return copy;
  }

  static byte[] riff(byte[] chunks) {
    return concat(ascii("RIFF"), u32le(4 + chunks.length), ascii("WEBP"), chunks);
  }

  static byte[] chunk(String fourCc, byte[] data) {
    byte[] pad = new byte[data.length & 1];
    return concat(ascii(fourCc), u32le(data.length), data, pad);
  }

  static byte[] box(String type, byte[] body) {
    return concat(u32(8 + body.length), ascii(type), body);
  }

  static byte[] fullBox(String type, byte[] body) {
    return box(type, concat(u32(0), body));
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] u16(int value) {
    return new byte[] {(byte) (value >> 8), (byte) value};
  }

  private static byte[] u32(int value) {
    return ByteBuffer.allocate(4).putInt(value).array();
  }

  private static byte[] u32le(int value) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
  }

  /** Writes bits least significant first, as the VP8L bitstream reads them. */
  private static final class Bits {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private int current;
    private int used;

    void put(int value, int count) {
      for (int i = 0; i < count; i++) {
        current |= ((value >> i) & 1) << used;
        if (++used == 8) {
          out.write(current);
          current = 0;
          used = 0;
        }
      }
    }

    byte[] bytes() {
      if (used > 0) {
        out.write(current);
        current = 0;
        used = 0;
      }
      return out.toByteArray();
    }
  }
}
