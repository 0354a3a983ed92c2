package io.mangacircus.contracts;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Typed reads of message fields that turn a missing or mistyped field into an {@link InvalidMessageException}. */
public final class MessageFields {

  private MessageFields() {
  }

  /** The body as a JSON object, or a MALFORMED_MESSAGE failure naming the message type. */
  public static JsonObject object(Object body, String type) {
    if (body instanceof JsonObject json) {
      return json;
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
        type + ": body must be a JSON object, got " + (body == null ? "nothing" : body.getClass().getSimpleName()));
  }

  /** Checks the {@code v} field against the one version this receiver understands. */
  public static void requireVersion(JsonObject json, String type, int supported) {
    Object v = json.getValue("v");
    if (!(v instanceof Number number)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'v' (number) is required");
    }
    if (number.intValue() != supported) {
      throw new InvalidMessageException(ErrorCode.UNSUPPORTED_VERSION,
          type + ": version " + number + " is not supported (this receiver speaks v" + supported + ")");
    }
  }

  /** A required non-blank string field. */
  public static String string(JsonObject json, String type, String field) {
    Object value = json.getValue(field);
    if (value instanceof String s && !s.isBlank()) {
      return s;
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
        type + ": field '" + field + "' (non-empty string) is required");
  }

  /**
   * A required non-blank string an operator supplied (a title, an id, a source name): like {@link #string}, and
   * refused when it carries a control character ({@link OperatorText}), so a request that bypasses HTTP is checked
   * too.
   */
  public static String operatorString(JsonObject json, String type, String field) {
    String value = string(json, type, field);
    OperatorText.problem(field, value, false).ifPresent(problem -> {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": " + problem);
    });
    return value;
  }

  /** An optional string field; null when absent, a failure when present with another type. */
  public static String optionalString(JsonObject json, String type, String field) {
    return optional(json, type, field, String.class, "a string");
  }

  /** A required integral number field. */
  public static long number(JsonObject json, String type, String field) {
    return required(json, type, field, Number.class, "number").longValue();
  }

  /** A required array field. */
  public static JsonArray array(JsonObject json, String type, String field) {
    return required(json, type, field, JsonArray.class, "array");
  }

  /** A required string field that may be empty (a chapter title, for example). */
  public static String text(JsonObject json, String type, String field) {
    return required(json, type, field, String.class, "string");
  }

  /** A required boolean field. */
  public static boolean bool(JsonObject json, String type, String field) {
    return required(json, type, field, Boolean.class, "boolean");
  }

  /** A required object field. */
  public static JsonObject object(JsonObject json, String type, String field) {
    return required(json, type, field, JsonObject.class, "object");
  }

  /** An optional integral number field; null when absent or null, a failure when present with another type. */
  public static Long optionalNumber(JsonObject json, String type, String field) {
    Number value = optional(json, type, field, Number.class, "a number");
    return value == null ? null : value.longValue();
  }

  /** An optional object field; null when absent or null, a failure when present with another type. */
  public static JsonObject optionalObject(JsonObject json, String type, String field) {
    return optional(json, type, field, JsonObject.class, "an object");
  }

  private static <T> T required(JsonObject json, String type, String field, Class<T> kind, String kindName) {
    Object value = json.getValue(field);
    if (kind.isInstance(value)) {
      return kind.cast(value);
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
        type + ": field '" + field + "' (" + kindName + ") is required");
  }

  private static <T> T optional(JsonObject json, String type, String field, Class<T> kind, String kindName) {
    Object value = json.getValue(field);
    if (value == null || kind.isInstance(value)) {
      return kind.cast(value);
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
        type + ": field '" + field + "' must be " + kindName);
  }

  /** A required ISO-8601 instant ({@code 2026-11-29T10:00:00Z}). */
  public static Instant instant(JsonObject json, String type, String field) {
    return parseInstant(type, field, string(json, type, field));
  }

  /** An optional ISO-8601 instant; null when absent or null. */
  public static Instant optionalInstant(JsonObject json, String type, String field) {
    String value = optionalString(json, type, field);
    return value == null ? null : parseInstant(type, field, value);
  }

  private static Instant parseInstant(String type, String field, String value) {
    try {
      return IsoInstant.parse(value);
    } catch (DateTimeParseException e) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          type + ": field '" + field + "' must be an ISO-8601 instant, got '" + value + "'");
    }
  }

  /** An optional boolean field; null when absent or null, a failure when present with another type. */
  public static Boolean optionalBoolean(JsonObject json, String type, String field) {
    return optional(json, type, field, Boolean.class, "a boolean");
  }

  /** A required array of strings (each may be empty); a failure names the field when an entry is not a string. */
  public static java.util.List<String> strings(JsonObject json, String type, String field) {
    return stringsOf(array(json, type, field), type, field);
  }

  /** An optional array of strings; an empty list when absent or null. */
  public static java.util.List<String> optionalStrings(JsonObject json, String type, String field) {
    JsonArray array = optional(json, type, field, JsonArray.class, "an array of strings");
    return array == null ? java.util.List.of() : stringsOf(array, type, field);
  }

  private static java.util.List<String> stringsOf(JsonArray array, String type, String field) {
    java.util.List<String> list = new java.util.ArrayList<>();
    for (Object entry : array) {
      if (!(entry instanceof String s)) {
        throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
            type + ": field '" + field + "' must be an array of strings");
      }
      list.add(s);
    }
    return java.util.List.copyOf(list);
  }

  /** An optional whole number field; null when absent or null, a failure when present with another type. */
  public static Integer optionalInt(JsonObject json, String type, String field) {
    Number value = optional(json, type, field, Number.class, "a whole number");
    if (value == null) {
      return null;
    }
    if (value.doubleValue() != value.intValue()) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field '" + field + "' must be a whole number");
    }
    return value.intValue();
  }

  private static final java.util.regex.Pattern LANGUAGE = java.util.regex.Pattern.compile(
      "[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}");

  /**
   * An optional language code ({@code en}, {@code pt-br}, {@code es-la}), returned in lower case; null when absent, a
   * MALFORMED_MESSAGE failure naming the field when it is not one.
   */
  public static String optionalLanguage(JsonObject json, String type, String field) {
    String value = optionalString(json, type, field);
    return value == null ? null : language(type, field, value);
  }

  /** A language code, trimmed and lower-cased; throws {@link InvalidMessageException} naming the field when it is not one. */
  public static String language(String type, String field, String value) {
    String code = value.trim().toLowerCase(java.util.Locale.ROOT);
    if (!LANGUAGE.matcher(code).matches()) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field '" + field
          + "' must be a language code such as 'en' or 'pt-br' (2-3 letters, optional '-' parts)");
    }
    return code;
  }
}
