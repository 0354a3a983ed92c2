package io.mangacircus.contracts;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The checks message records run in their compact constructors, so that a record exists only with its required
 * fields and within its limits, whether a sender built it or {@link MessageJson} read it; each failure is a
 * MALFORMED_MESSAGE {@link InvalidMessageException} naming the record type and the field.
 */
public final class MessageFields {

  private static final Pattern LANGUAGE = Pattern.compile("[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}");

  private MessageFields() {
  }

  /** {@code value}, when present; else a failure naming the field. */
  public static <T> T required(Class<?> type, String field, T value) {
    if (value == null) {
      throw refused(type, field, "is required");
    }
    return value;
  }

  /** A required string that is not blank. */
  public static String nonBlank(Class<?> type, String field, String value) {
    if (value == null || value.isBlank()) {
      throw refused(type, field, "(non-empty string) is required");
    }
    return value;
  }

  /**
   * A required non-blank string an operator supplied (a title, an id, a source name): like {@link #nonBlank}, and
   * refused when it carries a control character ({@link OperatorText}), so a request that bypasses HTTP is checked
   * too.
   */
  public static String operatorText(Class<?> type, String field, String value) {
    nonBlank(type, field, value);
    OperatorText.problem(field, value, false).ifPresent(problem -> {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, MessageJson.name(type) + ": " + problem);
    });
    return value;
  }

  /** {@code value} (null allowed) when it is at most {@code max} characters long. */
  public static String atMost(Class<?> type, String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw refused(type, field, "is longer than " + max);
    }
    return value;
  }

  /** {@code value} (null allowed) when it is between {@code min} and {@code max}. */
  public static <N extends Number> N within(Class<?> type, String field, N value, long min, long max) {
    if (value != null && (value.longValue() < min || value.longValue() > max)) {
      throw refused(type, field, "must be between " + min + " and " + max + ", got " + value);
    }
    return value;
  }

  /** An unmodifiable copy of a required list. */
  public static <T> List<T> list(Class<?> type, String field, List<T> value) {
    return List.copyOf(required(type, field, value));
  }

  /** An optional language code, trimmed and lower-cased; null stays null. */
  public static String optionalLanguage(Class<?> type, String field, String value) {
    return value == null ? null : language(MessageJson.name(type), field, value);
  }

  /** A language code, trimmed and lower-cased; throws {@link InvalidMessageException} naming the field when it is not one. */
  public static String language(String type, String field, String value) {
    String code = value.trim().toLowerCase(Locale.ROOT);
    if (!LANGUAGE.matcher(code).matches()) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field '" + field
          + "' must be a language code such as 'en' or 'pt-br' (2-3 letters, optional '-' parts)");
    }
    return code;
  }

  /** A MALFORMED_MESSAGE failure: {@code <type>: field '<field>' <problem>}. */
  public static InvalidMessageException refused(Class<?> type, String field, String problem) {
    return new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
        MessageJson.name(type) + ": field '" + field + "' " + problem);
  }
}
