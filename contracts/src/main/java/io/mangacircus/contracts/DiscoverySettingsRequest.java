package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * New nightly discovery settings; a null field keeps its current value.
 *
 * @param enabled whether discovery runs at its time
 * @param time local time of day {@code HH:mm}
 */
public record DiscoverySettingsRequest(Boolean enabled, String time) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("enabled", enabled).put("time", time);
  }

  public static DiscoverySettingsRequest fromJson(Object body) {
    String type = "DiscoverySettingsRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    Object enabled = json.getValue("enabled");
    if (enabled != null && !(enabled instanceof Boolean)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'enabled' must be true or false");
    }
    String time = MessageFields.optionalString(json, type, "time");
    if (time != null && !time.matches("([01]\\d|2[0-3]):[0-5]\\d")) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'time' must be HH:mm (00:00-23:59)");
    }
    return new DiscoverySettingsRequest((Boolean) enabled, time);
  }
}
