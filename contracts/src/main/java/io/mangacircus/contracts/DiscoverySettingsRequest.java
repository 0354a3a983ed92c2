package io.mangacircus.contracts;

/**
 * New nightly discovery settings; a null field keeps its current value.
 *
 * @param enabled whether discovery runs at its time
 * @param time local time of day {@code HH:mm}
 */
public record DiscoverySettingsRequest(Boolean enabled, String time) implements Message {

  public static final int VERSION = 1;

  public DiscoverySettingsRequest {
    if (time != null && !time.matches("([01]\\d|2[0-3]):[0-5]\\d")) {
      throw MessageFields.refused(DiscoverySettingsRequest.class, "time", "must be HH:mm (00:00-23:59)");
    }
  }

  public static DiscoverySettingsRequest fromJson(Object body) {
    return MessageJson.read(body, DiscoverySettingsRequest.class, VERSION);
  }
}
