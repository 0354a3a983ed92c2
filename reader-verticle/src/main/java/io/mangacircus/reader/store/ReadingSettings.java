package io.mangacircus.reader.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a user reads (a series, or by default): layout, reading direction, fit, the double-page offset and border
 * cropping. Only the values the browser reader knows are accepted; a bad or missing one is refused naming its key.
 */
public record ReadingSettings(String layout, String direction, String fit, boolean offset, boolean crop) {

  /** The layouts: {@code auto} is double on a landscape screen wider than 1,000 px, else single (the browser decides). */
  public static final List<String> LAYOUTS = List.of("single", "double", "strip", "auto");
  public static final List<String> DIRECTIONS = List.of("ltr", "rtl");
  public static final List<String> FITS = List.of("width", "height", "original");

  /** The keys of a settings object, in the order they are written. */
  public static final List<String> KEYS = List.of("layout", "direction", "fit", "offset", "crop");

  /** @throws IllegalArgumentException naming the key whose value is not one of those accepted */
  public ReadingSettings {
    oneOf("layout", layout, LAYOUTS);
    oneOf("direction", direction, DIRECTIONS);
    oneOf("fit", fit, FITS);
  }

  /**
   * The settings a client sent as a JSON object's values: all five keys, nothing else.
   *
   * @throws IllegalArgumentException naming the first key that is missing, unknown or holds a value not accepted
   */
  public static ReadingSettings of(Map<String, ?> values) {
    for (String key : values.keySet()) {
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("unknown key '" + key + "': a reading settings object has " + KEYS);
      }
    }
    return new ReadingSettings(text(values, "layout", LAYOUTS), text(values, "direction", DIRECTIONS),
        text(values, "fit", FITS), flag(values, "offset"), flag(values, "crop"));
  }

  /** The settings as the API writes them. */
  public Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("layout", layout);
    map.put("direction", direction);
    map.put("fit", fit);
    map.put("offset", offset);
    map.put("crop", crop);
    return map;
  }

  private static String text(Map<String, ?> values, String key, List<String> accepted) {
    Object value = values.get(key);
    if (!(value instanceof String text)) {
      throw new IllegalArgumentException(key + " must be one of " + accepted + (value == null ? " (missing)" : ""));
    }
    return text;
  }

  private static boolean flag(Map<String, ?> values, String key) {
    if (!(values.get(key) instanceof Boolean flag)) {
      throw new IllegalArgumentException(key + " must be true or false"
          + (values.get(key) == null ? " (missing)" : ""));
    }
    return flag;
  }

  private static void oneOf(String key, String value, List<String> accepted) {
    if (value == null || !accepted.contains(value)) {
      throw new IllegalArgumentException(key + " must be one of " + accepted
          + (value == null ? " (missing)" : ", not '" + shortened(value) + "'"));
    }
  }

  /** A refused value as a message quotes it: never more than a few dozen characters. */
  private static String shortened(String value) {
    return value.length() > 40 ? value.substring(0, 40) + "…" : value;
  }
}
