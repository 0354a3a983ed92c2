package io.mangacircus.reader.library.metadata;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Cleans text read from metadata files: control characters dropped, whitespace trimmed, lists split and de-duplicated. */
final class MetadataText {

  private MetadataText() {
  }

  /** Trimmed text, or null when null or blank. */
  static String blankToNull(String text) {
    if (text == null) {
      return null;
    }
    String trimmed = text.strip();
    return trimmed.isEmpty() ? null : trimmed;
  }

  /**
   * One line: line breaks, tabs and other whitespace become spaces, other control characters are dropped, runs of
   * spaces become one space, then trimmed; null when nothing is left.
   */
  static String line(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      if (Character.isWhitespace(c)) {
        out.append(' ');
      } else if (!Character.isISOControl(c)) {
        out.appendCodePoint(c);
      }
    });
    return blankToNull(out.toString().replaceAll(" {2,}", " "));
  }

  /**
   * Several lines, as a summary: line breaks kept (CR LF and CR become LF), tabs become spaces, other control
   * characters dropped; null when nothing is left.
   */
  static String paragraphs(String text) {
    if (text == null) {
      return null;
    }
    String unified = text.replace("\r\n", "\n").replace('\r', '\n');
    StringBuilder out = new StringBuilder(unified.length());
    unified.codePoints().forEach(c -> {
      if (c == '\n') {
        out.append('\n');
      } else if (c == '\t') {
        out.append(' ');
      } else if (!Character.isISOControl(c)) {
        out.appendCodePoint(c);
      }
    });
    return blankToNull(out.toString());
  }

  /** Items separated by commas, each cleaned to one line, empty ones left out, duplicates (any case) left out. */
  static List<String> commaList(String text) {
    List<String> items = new ArrayList<>();
    if (text != null) {
      for (String part : text.split(",")) {
        String item = line(part);
        if (item != null) {
          items.add(item);
        }
      }
    }
    return distinct(items);
  }

  /** The first spelling of each item, whatever the case of later ones, in order. */
  static List<String> distinct(List<String> items) {
    Map<String, String> seen = new LinkedHashMap<>();
    for (String item : items) {
      seen.putIfAbsent(item.toLowerCase(Locale.ROOT), item);
    }
    return List.copyOf(seen.values());
  }

  /**
   * The absolute http and https URLs among whitespace-separated items, duplicates left out. Other schemes are left out
   * because links are shown as links: a {@code javascript:} one would run in a reader's browser.
   */
  static List<String> links(String text) {
    List<String> links = new ArrayList<>();
    if (text != null) {
      for (String part : text.strip().split("\\s+")) {
        String link = webLink(part);
        if (link != null && !links.contains(link)) {
          links.add(link);
        }
      }
    }
    return List.copyOf(links);
  }

  /** The text when it is an absolute http(s) URL with a host, else null. */
  static String webLink(String text) {
    String candidate = line(text);
    if (candidate == null) {
      return null;
    }
    try {
      URI uri = new URI(candidate);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null ? candidate : null;
    } catch (java.net.URISyntaxException e) {
      return null;
    }
  }

  /** A whole number, or null when absent, not a number, or not above zero (the schema's -1 means "unknown"). */
  static Integer positive(String text) {
    String value = line(text);
    if (value == null) {
      return null;
    }
    try {
      int n = Integer.parseInt(value);
      return n > 0 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A BCP 47 language tag in its canonical case, or null when blank or not a language ("und"). */
  static String language(String text) {
    String value = line(text);
    if (value == null) {
      return null;
    }
    String tag = Locale.forLanguageTag(value.replace('_', '-')).toLanguageTag();
    return tag.equals("und") ? null : tag;
  }
}
