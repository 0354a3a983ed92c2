package io.mangacircus.launcher.logging;

import java.util.Locale;

/**
 * Escapes control characters in log text so one event is one line and no terminal escape, NUL or bidirectional
 * override reaches a console or file, whatever the text's origin (an operator's request, a source's title, an
 * exception message). LF, CR and TAB become {@code \n}, {@code \r}, {@code \t}; other C0 and C1 controls, DEL, the
 * line and paragraph separators and the bidi embeddings, overrides, isolates and marks become {@code \}{@code uXXXX}.
 * A backslash is left alone, so an escape is readable but not distinguishable from the same text typed literally.
 */
public final class LineEscaper {

  private LineEscaper() {
  }

  /** Whether a code point is written escaped. */
  static boolean escaped(int c) {
    return c < 0x20 || c >= 0x7F && c <= 0x9F || c == 0x061C || c == 0x200E || c == 0x200F
        || c == 0x2028 || c == 0x2029 || c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069;
  }

  /** The text with every control character escaped; null stays null. */
  public static String escape(String text) {
    if (text == null) {
      return null;
    }
    int first = 0;
    while (first < text.length() && !escaped(text.charAt(first))) {
      first++;
    }
    if (first == text.length()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!escaped(c)) {
        out.append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      }
    }
    return out.toString();
  }
}
