package io.mangacircus.reader.accounts;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * How the page guard reads a request's path before it decides: percent-decoded and with {@code .}, {@code ..} and empty
 * segments resolved, so that no spelling of an admin page's path gets past it. A path that hides a separator
 * ({@code %2F}, {@code %5C}) or holds a backslash names no page at all: file serving would read it as a separator the
 * routes never saw.
 */
final class PagePath {

  private PagePath() {
  }

  /** The path as the guard reads it, or null when it names no page (encoded separator, backslash, broken escape). */
  static String decode(String rawPath) {
    if (rawPath == null || rawPath.isEmpty() || rawPath.indexOf('\\') >= 0) {
      return null;
    }
    String lower = rawPath.toLowerCase(Locale.ROOT);
    if (lower.contains("%2f") || lower.contains("%5c")) {
      return null;
    }
    String decoded;
    try {
      decoded = java.net.URLDecoder.decode(rawPath.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (decoded.indexOf('\\') >= 0) {
      return null;
    }
    Deque<String> segments = new ArrayDeque<>();
    for (String segment : decoded.split("/", -1)) {
      if (segment.equals("..")) {
        segments.pollLast();
      } else if (!segment.isEmpty() && !segment.equals(".")) {
        segments.addLast(segment);
      }
    }
    boolean folder = decoded.endsWith("/") || decoded.endsWith("/.") || decoded.endsWith("/..");
    String path = "/" + String.join("/", segments);
    return folder && !segments.isEmpty() ? path + "/" : path;
  }

  /** Whether a decoded path is one of the admin pages ({@code /admin} and below). */
  static boolean isAdmin(String decodedPath) {
    return decodedPath.equals("/admin") || decodedPath.startsWith("/admin/");
  }
}
