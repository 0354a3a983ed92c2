package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which reading settings a client may send: the five keys with the values the browser reader knows, nothing else. */
class ReadingSettingsTest {

  private static Map<String, Object> valid() {
    Map<String, Object> values = new HashMap<>();
    values.put("layout", "auto");
    values.put("direction", "rtl");
    values.put("fit", "original");
    values.put("offset", false);
    values.put("crop", true);
    return values;
  }

  private static Map<String, Object> with(String key, Object value) {
    Map<String, Object> values = valid();
    values.put(key, value);
    return values;
  }

  @Test
  void theFiveKnownValuesAreReadAndWrittenBackAsSent() {
    ReadingSettings settings = ReadingSettings.of(valid());

    assertThat(settings).isEqualTo(new ReadingSettings("auto", "rtl", "original", false, true));
    assertThat(settings.toMap()).isEqualTo(valid());
  }

  @Test
  void aValueNotKnownIsRefusedNamingItsKey() {
    assertThatThrownBy(() -> ReadingSettings.of(with("layout", "triple")))
        .hasMessage("layout must be one of [single, double, strip, auto], not 'triple'");
    assertThatThrownBy(() -> ReadingSettings.of(with("direction", "ttb")))
        .hasMessage("direction must be one of [ltr, rtl], not 'ttb'");
    assertThatThrownBy(() -> ReadingSettings.of(with("fit", 3))).hasMessage("fit must be one of [width, height, original]");
    assertThatThrownBy(() -> ReadingSettings.of(with("crop", "true"))).hasMessage("crop must be true or false");
  }

  @Test
  void aMissingOrUnknownKeyIsRefusedNamingIt() {
    Map<String, Object> noOffset = valid();
    noOffset.remove("offset");

    assertThatThrownBy(() -> ReadingSettings.of(noOffset)).hasMessage("offset must be true or false (missing)");
    assertThatThrownBy(() -> ReadingSettings.of(with("zoom", 2)))
        .hasMessageStartingWith("unknown key 'zoom'");
  }
}
