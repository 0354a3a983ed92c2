package io.mangacircus.reader.accounts;

import java.util.ArrayList;
import java.util.List;

/**
 * A route path of literal segments and {@code :name} parameters (a parameter may be followed by a literal suffix that
 * starts with a dot, as in {@code :chapter.cbz}), matched against a request's normalized path exactly as Vert.x Web
 * 5 matches such a route (one trailing slash ignored, a parameter is one non-empty segment), without a regular
 * expression and without extracting or decoding the parameters. Anything else is not plain ({@link #parse} is null):
 * wildcards, regular-expression characters, a trailing slash, two parameters in a segment.
 */
final class PlainRoutePath {

  private final String path;
  private final String[] texts;
  private final boolean[] parameters;
  /** Each segment's parameter name, null for a literal segment. */
  private final String[] names;

  private PlainRoutePath(String path, String[] texts, boolean[] parameters, String[] names) {
    this.path = path;
    this.texts = texts;
    this.parameters = parameters;
    this.names = names;
  }

  /** The path as a plain path, or null when it is not one (then only Vert.x's own matching is exact for it). */
  static PlainRoutePath parse(String path) {
    if (path == null || path.length() < 2 || path.charAt(0) != '/' || path.endsWith("/")) {
      return null;
    }
    List<String> texts = new ArrayList<>();
    List<Boolean> parameters = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String segment : path.substring(1).split("/", -1)) {
      if (segment.isEmpty()) {
        return null;
      }
      if (segment.charAt(0) == ':') {
        int end = 1;
        while (end < segment.length() && isNameChar(segment.charAt(end))) {
          end++;
        }
        String suffix = segment.substring(end);
        // The suffix must start where a parameter name cannot go on, whichever name pattern Vert.x was told to use.
        if (end == 1 || !suffix.isEmpty() && (suffix.charAt(0) != '.' || !isLiteral(suffix))) {
          return null;
        }
        texts.add(suffix);
        parameters.add(true);
        names.add(segment.substring(1, end));
      } else {
        if (!isLiteral(segment) || segment.equals(".") || segment.equals("..")) {
          return null;
        }
        texts.add(segment);
        parameters.add(false);
        names.add(null);
      }
    }
    boolean[] flags = new boolean[parameters.size()];
    for (int i = 0; i < flags.length; i++) {
      flags[i] = parameters.get(i);
    }
    return new PlainRoutePath(path, texts.toArray(String[]::new), flags, names.toArray(String[]::new));
  }

  /** Whether a request with this normalized path reaches the route (its method aside). */
  boolean matches(String requestPath) {
    int end = requestPath.length();
    if (end == 0 || requestPath.charAt(0) != '/') {
      return false;
    }
    if (end > 1 && requestPath.charAt(end - 1) == '/') {
      end--;
    }
    int at = 1;
    int last = texts.length - 1;
    for (int i = 0; i <= last; i++) {
      int next = requestPath.indexOf('/', at);
      if (next < 0 || next > end) {
        next = end;
      }
      if (i < last ? next >= end : next != end) {
        return false;
      }
      String text = texts[i];
      int length = next - at;
      if (parameters[i]) {
        if (length <= text.length() || !requestPath.regionMatches(next - text.length(), text, 0, text.length())) {
          return false;
        }
      } else if (length != text.length() || !requestPath.regionMatches(at, text, 0, length)) {
        return false;
      }
      at = next + 1;
    }
    return true;
  }

  /** Whether the path has a parameter of this name. */
  boolean has(String name) {
    return java.util.Arrays.asList(names).contains(name);
  }

  /**
   * The raw (still percent-encoded) value of parameter {@code name} in a request path this route {@link #matches},
   * without its literal suffix; null when it has no such parameter.
   */
  String parameter(String requestPath, String name) {
    int at = 1;
    for (int i = 0; i < texts.length; i++) {
      int next = requestPath.indexOf('/', at);
      if (next < 0) {
        next = requestPath.length();
      }
      if (name.equals(names[i])) {
        return requestPath.substring(at, next - texts[i].length());
      }
      at = next + 1;
    }
    return null;
  }

  @Override
  public String toString() {
    return path;
  }

  private static boolean isNameChar(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
  }

  /** Characters that stand for themselves in the regular expression Vert.x makes of a path. */
  private static boolean isLiteral(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(isNameChar(c) || c == '-' || c == '.' || c == '~')) {
        return false;
      }
    }
    return true;
  }
}
