package io.mangacircus.scraper.source.suwayomi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.SourceTypes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuwayomiOptionsTest {

  private static final String KEY = "scraper.sources.bridge.options";
  private static final String SECRET = "s3cret-Pa55";
  private static final Function<String, String> ENV = name -> name.equals("MC_SUWAYOMI_PASSWORD") ? SECRET : null;

  @TempDir
  Path dir;

  private SuwayomiOptions of(Map<String, Object> options) {
    return SuwayomiOptions.of(KEY, options, dir, ENV);
  }

  @Test
  void aSourceIdAloneMeansNoAuthentication() {
    SuwayomiOptions options = of(Map.of("sourceId", "2499283573021220255"));
    assertThat(options.sourceId()).isEqualTo("2499283573021220255");
    assertThat(options.auth()).isEqualTo(SuwayomiOptions.Auth.NONE);
    assertThat(options.authorization()).isNull();
  }

  @Test
  void theSourceTypeIsRegisteredUnderItsName() {
    SourceConfig source = new SourceConfig("suwayomi", "http://127.0.0.1:4567/manga", 0, 0, List.of(),
        Map.of("sourceId", "2499283573021220255"));
    assertThat(SourceTypes.names()).contains("suwayomi");
    assertThat(SourceTypes.resolve("bridge", source, dir).description()).contains("2499283573021220255");
    assertThatThrownBy(() -> SourceTypes.check("bridge", new SourceConfig("suwayomi", "", 0, 0, List.of(),
        Map.of("sourceId", "1")), false, dir)).isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("scraper.sources.bridge.baseUrl");
  }

  @Test
  void aMissingSourceIdIsRefusedWithItsKey() {
    assertThatThrownBy(() -> of(Map.of())).isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining(KEY + ".sourceId").hasMessageContaining("required");
  }

  @Test
  void aSourceIdThatIsNotAStringOfDigitsIsRefused() {
    for (Object bad : List.<Object>of("mangadex", "12a", "", 2499283573021220255L, "99999999999999999999")) {
      assertThatThrownBy(() -> of(Map.of("sourceId", bad))).as("%s", bad).isInstanceOf(InvalidConfigException.class)
          .hasMessageContaining(KEY + ".sourceId");
    }
  }

  @Test
  void anUnknownOptionOrAuthModeIsRefusedWithItsKey() {
    assertThatThrownBy(() -> of(Map.of("sourceId", "1", "password", SECRET))).isInstanceOf(
        InvalidConfigException.class).hasMessageContaining(KEY + ".password").hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> of(Map.of("sourceId", "1", "auth", "ui_login"))).hasMessageContaining(KEY + ".auth")
        .hasMessageContaining("not supported yet");
    assertThatThrownBy(() -> of(Map.of("sourceId", "1", "auth", "digest"))).hasMessageContaining(KEY + ".auth");
  }

  @Test
  void basicAuthTakesThePasswordFromTheEnvironment() {
    SuwayomiOptions options = of(Map.of("sourceId", "7", "auth", "basic", "username", "reader",
        "passwordEnv", "MC_SUWAYOMI_PASSWORD"));
    assertThat(options.password()).isEqualTo(SECRET);
    assertThat(options.authorization()).isEqualTo("Basic " + Base64.getEncoder().encodeToString(
        ("reader:" + SECRET).getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void basicAuthTakesThePasswordFromAFileWithoutItsLastLineBreak() throws Exception {
    Files.writeString(dir.resolve("suwayomi.password"), SECRET + "\n");
    SuwayomiOptions options = of(Map.of("sourceId", "7", "auth", "basic", "username", "reader",
        "passwordFile", "suwayomi.password"));
    assertThat(options.password()).isEqualTo(SECRET);
  }

  @Test
  void basicAuthWithoutAPasswordSourceOrWithAnUnsetVariableIsRefused() {
    assertThatThrownBy(() -> of(Map.of("sourceId", "7", "auth", "basic", "username", "reader")))
        .hasMessageContaining(KEY + ".passwordEnv");
    assertThatThrownBy(() -> of(Map.of("sourceId", "7", "auth", "basic", "username", "reader",
        "passwordEnv", "NOT_SET_ANYWHERE"))).hasMessageContaining("NOT_SET_ANYWHERE").hasMessageContaining("not set");
    assertThatThrownBy(() -> of(Map.of("sourceId", "7", "auth", "basic", "username", "reader",
        "passwordFile", "missing.txt"))).hasMessageContaining(KEY + ".passwordFile");
    assertThatThrownBy(() -> of(Map.of("sourceId", "7", "auth", "basic", "passwordEnv", "MC_SUWAYOMI_PASSWORD")))
        .hasMessageContaining(KEY + ".username");
    assertThatThrownBy(() -> of(Map.of("sourceId", "7", "username", "reader")))
        .as("credentials without basic auth are a mistake, not ignored").hasMessageContaining(KEY + ".username");
  }

  @Test
  void thePasswordIsNeverInToStringNorInAnErrorMessage() {
    SuwayomiOptions options = of(Map.of("sourceId", "7", "auth", "basic", "username", "reader",
        "passwordEnv", "MC_SUWAYOMI_PASSWORD"));
    assertThat(options.toString()).contains("reader").doesNotContain(SECRET);
    assertThatThrownBy(() -> of(Map.of("sourceId", "x", "auth", "basic", "username", "reader",
        "passwordEnv", "MC_SUWAYOMI_PASSWORD"))).hasMessageNotContaining(SECRET);
  }
}
