package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * New pacing for a lane; a null delay returns to the configured default.
 *
 * @param source the source's name
 * @param pageDelayMs delay between page fetches, ms (0..600000), or null
 * @param chapterDelayMs delay between chapters, ms (0..3600000), or null
 */
public record LanePacingRequest(String source, Long pageDelayMs, Long chapterDelayMs) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("pageDelayMs", pageDelayMs)
        .put("chapterDelayMs", chapterDelayMs);
  }

  public static LanePacingRequest fromJson(Object body) {
    String type = "LanePacingRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    return new LanePacingRequest(MessageFields.operatorString(json, type, "source"),
        delay(json, type, "pageDelayMs", 600_000), delay(json, type, "chapterDelayMs", 3_600_000));
  }

  private static Long delay(JsonObject json, String type, String field, long max) {
    Object value = json.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Number n) || n.longValue() < 0 || n.longValue() > max || n.doubleValue() != n.longValue()) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          type + ": field '" + field + "' must be a whole number of ms between 0 and " + max);
    }
    return n.longValue();
  }
}
