package io.mangacircus.support.xml;

/**
 * The one XML 1.0 text and attribute escaper of every document the product writes (OPDS feeds, ComicInfo.xml): the
 * five markup characters become entities and characters XML 1.0 cannot carry (control characters, lone surrogates,
 * U+FFFE and U+FFFF) are left out, so that a source's title never makes a document a reader app refuses.
 */
public final class XmlText {

  private XmlText() {
  }

  /** {@code text} escaped for XML text and attribute values; empty for null. */
  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    text.codePoints().forEach(c -> {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> {
          if (allowed(c)) {
            out.appendCodePoint(c);
          }
        }
      }
    });
    return out.toString();
  }

  /** Whether XML 1.0 can carry the code point (its {@code Char} production). */
  static boolean allowed(int c) {
    return c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD
        || c >= 0x10000 && c <= 0x10FFFF;
  }
}
