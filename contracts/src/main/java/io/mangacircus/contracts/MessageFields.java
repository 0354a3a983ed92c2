package io.mangacircus.contracts;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

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
    Object value = json.getValue(field);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field '" + field + "' must be a string");
  }

  /** A required integral number field. */
  public static long number(JsonObject json, String type, String field) {
    Object value = json.getValue(field);
    if (value instanceof Number n) {
      return n.longValue();
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field '" + field + "' (number) is required");
  }

  /** A required array field. */
  public static JsonArray array(JsonObject json, String type, String field) {
    Object value = json.getValue(field);
    if (value instanceof JsonArray array) {
      return array;
    }
    throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field '" + field + "' (array) is required");
  }
}
