package io.mangacircus.contracts;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Finds the characters an operator-supplied string must not carry (docs/api.md, "Text fields"): C0 controls,
 * DEL, C1 controls, the line and paragraph separators and the bidirectional embeddings, overrides and isolates.
 * Multi-line fields may keep TAB, LF and CR. It only judges; escaping for logs happens in the log layer.
 */
public final class OperatorText {

  private OperatorText() {
  }

  /** Whether {@code codePoint} is refused in a single-line ({@code multiLine} false) or multi-line field. */
  public static boolean forbidden(int codePoint, boolean multiLine) {
    if (multiLine && (codePoint == '\t' || codePoint == '\n' || codePoint == '\r')) {
      return false;
    }
    return codePoint < 0x20 // C0, TAB, LF and CR included
        || codePoint >= 0x7F && codePoint <= 0x9F // DEL and C1
        || codePoint == 0x2028 || codePoint == 0x2029 // line and paragraph separators
        || codePoint >= 0x202A && codePoint <= 0x202E // LRE, RLE, PDF, LRO, RLO
        || codePoint >= 0x2066 && codePoint <= 0x2069; // LRI, RLI, FSI, PDI
  }

  /** The first forbidden code point of {@code text}, or empty when it is clean (null is clean). */
  public static OptionalInt firstForbidden(String text, boolean multiLine) {
    if (text == null) {
      return OptionalInt.empty();
    }
    return text.codePoints().filter(c -> forbidden(c, multiLine)).findFirst();
  }

  /** {@code U+001B}. */
  public static String codePoint(int codePoint) {
    return String.format(Locale.ROOT, "U+%04X", codePoint);
  }

  /** What is wrong with one field, e.g. {@code field 'title' contains a control character (U+001B)}; empty if clean. */
  public static Optional<String> problem(String field, String text, boolean multiLine) {
    OptionalInt bad = firstForbidden(text, multiLine);
    return bad.isPresent() ? Optional.of("field '" + field + "' contains a control character ("
        + codePoint(bad.getAsInt()) + ")") : Optional.empty();
  }

  /**
   * The first problem among every string of a request body, nested objects and arrays included (a field inside is
   * named {@code tags[2]} or {@code a.b}).
   *
   * @param multiLineFields top-level fields that may hold several lines (TAB, LF and CR allowed)
   * @param exemptFields top-level fields that are not looked at (secrets that are never shown or logged)
   */
  public static Optional<String> problemIn(JsonObject body, Set<String> multiLineFields, Set<String> exemptFields) {
    for (Map.Entry<String, Object> entry : body) {
      if (exemptFields.contains(entry.getKey())) {
        continue;
      }
      Optional<String> problem = problemIn(entry.getKey(), entry.getValue(), multiLineFields.contains(entry.getKey()));
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> problemIn(String field, Object value, boolean multiLine) {
    if (value instanceof String text) {
      return problem(field, text, multiLine);
    }
    if (value instanceof JsonObject object) {
      for (Map.Entry<String, Object> entry : object) {
        Optional<String> problem = problemIn(field + "." + entry.getKey(), entry.getValue(), multiLine);
        if (problem.isPresent()) {
          return problem;
        }
      }
    } else if (value instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        Optional<String> problem = problemIn(field + "[" + i + "]", array.getValue(i), multiLine);
        if (problem.isPresent()) {
          return problem;
        }
      }
    }
    return Optional.empty();
  }
}
