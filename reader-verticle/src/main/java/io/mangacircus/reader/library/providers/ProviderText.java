package io.mangacircus.reader.library.providers;

import java.util.regex.Pattern;

/** Providers' descriptions as plain text: their HTML line breaks kept as lines, other tags and entities dropped. */
final class ProviderText {

  private static final Pattern BREAK = Pattern.compile("(?i)<br\\s*/?>");
  private static final Pattern TAG = Pattern.compile("<[^>]*>");

  private ProviderText() {
  }

  static String plain(String html) {
    if (html == null) {
      return null;
    }
    String text = BREAK.matcher(html).replaceAll("\n");
    text = TAG.matcher(text).replaceAll("");
    text = text.replace("&quot;", "\"").replace("&#039;", "'").replace("&#39;", "'").replace("&lt;", "<")
        .replace("&gt;", ">").replace("&nbsp;", " ").replace("&amp;", "&");
    return text.replaceAll("\n{3,}", "\n\n").strip();
  }
}
