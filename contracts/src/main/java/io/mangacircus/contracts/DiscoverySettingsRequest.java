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

  public DiscoverySettingsRequest {
    if (time != null && !time.matches("([01]\\d|2[0-3]):[0-5]\\d")) {
      throw MessageFields.refused(DiscoverySettingsRequest.class, "time", "must be HH:mm (00:00-23:59)");
    }
  }

  public JsonObject toJson() {
    return MessageJson.write(this, VERSION);
  }

  public static DiscoverySettingsRequest fromJson(Object body) {
    return MessageJson.read(body, DiscoverySettingsRequest.class, VERSION);
  }
}
