package io.mangacircus.scraper.validate;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Reads numbers and four-character codes out of an image's bytes, for the walkers and their messages. */
final class ImageBytes {

  private ImageBytes() {
  }

  static int fourCc(String name) {
    byte[] b = name.getBytes(StandardCharsets.US_ASCII);
    return i32be(b, 0);
  }

  /** A four-character code for a message, non-printable bytes as '?'. */
  static String name(byte[] b, int at) {
    StringBuilder out = new StringBuilder(4);
    for (int i = at; i < at + 4 && i < b.length; i++) {
      int c = u8(b, i);
      out.append(c >= 0x20 && c < 0x7F ? (char) c : '?');
    }
    return out.toString();
  }

  static String hex(int value) {
    return "0x" + hex2(value);
  }

  static String hex2(int value) {
    return String.format(Locale.ROOT, "%02X", value);
  }

  static int u8(byte[] b, int at) {
    return b[at] & 0xFF;
  }

  static int u16be(byte[] b, int at) {
    return (u8(b, at) << 8) | u8(b, at + 1);
  }

  static int u16le(byte[] b, int at) {
    return u8(b, at) | (u8(b, at + 1) << 8);
  }

  static int u24le(byte[] b, int at) {
    return u8(b, at) | (u8(b, at + 1) << 8) | (u8(b, at + 2) << 16);
  }

  static int i32be(byte[] b, int at) {
    return (u8(b, at) << 24) | (u8(b, at + 1) << 16) | (u8(b, at + 2) << 8) | u8(b, at + 3);
  }

  static long u32be(byte[] b, int at) {
    return i32be(b, at) & 0xFFFFFFFFL;
  }

  static long u32le(byte[] b, int at) {
    return (u24le(b, at) | ((long) u8(b, at + 3) << 24)) & 0xFFFFFFFFL;
  }

  static long u64be(byte[] b, int at) {
    return (u32be(b, at) << 32) | u32be(b, at + 4);
  }
}
