package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourcesTest {

  private static final Map<String, Object> MANGAPILL = Map.of("definition", "classpath:/sources/mangapill.json");

  @TempDir
  Path dir;

  private static ScraperConfig scraper() {
    return new ScraperConfig(0, false, 120, 1000, 60, 30, new ScraperConfig.Recovery(50, 200),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of(),
        new ScraperConfig.Failures(300, 2, 1000, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
  }

  /** As the config file would give it: only the keys named are set, the rest defaulted. */
  private static SourceConfig configured(String baseUrl, Long pageDelayMs, Long chapterDelayMs, List<String> markers,
      Map<String, Object> options) {
    return SourceConfig.fromJson("html", baseUrl, pageDelayMs, chapterDelayMs, markers, options);
  }

  @Test
  void anHtmlSourceTakesTheDefinitionsBaseUrlPacingAndMarkersWhenItLeavesThemOut() {
    ResolvedSource resolved = Sources.resolve("mangapill", configured(null, null, null, null, MANGAPILL), scraper());

    assertThat(resolved.config().baseUrl()).isEqualTo("https://mangapill.com");
    assertThat(resolved.config().pageDelayMs()).isEqualTo(1500);
    assertThat(resolved.config().chapterDelayMs()).isEqualTo(5000);
    assertThat(resolved.config().challengeMarkers()).containsAll(SourceConfig.DEFAULT_CHALLENGE_MARKERS)
        .contains("cf-browser-verification");
    assertThat(resolved.config().defaulted()).isEmpty();
    assertThat(resolved.seriesFolderPrefix()).isEqualTo("mangapill-");
    assertThat(resolved.definition().name()).isEqualTo("MangaPill");
  }

  @Test
  void whatTheSourceSetsWinsOverTheDefinition() {
    ResolvedSource resolved = Sources.resolve("mp", configured("http://127.0.0.1:8089", 250L, 0L,
        List.of("my marker"), MANGAPILL), scraper());

    assertThat(resolved.config().baseUrl()).isEqualTo("http://127.0.0.1:8089");
    assertThat(resolved.config().pageDelayMs()).as("set explicitly, even to the built-in default").isEqualTo(250);
    assertThat(resolved.config().chapterDelayMs()).isZero();
    assertThat(resolved.config().challengeMarkers()).containsExactly("my marker", "cf-browser-verification",
        "attention required! | cloudflare");
  }

  @Test
  void otherTypesAreLeftAsConfigured() {
    SourceConfig demo = new SourceConfig("demo", "http://127.0.0.1:1", 0, 0);

    ResolvedSource resolved = Sources.resolve("demo", demo, scraper());

    assertThat(resolved.config()).isSameAs(demo);
    assertThat(resolved.seriesFolderPrefix()).isEmpty();
  }

  @Test
  void optionsAreCheckedAndNamedByTheirConfigKey() {
    assertThatThrownBy(() -> Sources.resolve("mp", configured(null, null, null, null, Map.of()), scraper()))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageStartingWith("invalid configuration: scraper.sources.mp.options.definition: is required for type "
            + "html");
    assertThatThrownBy(() -> Sources.resolve("mp", configured(null, null, null, null,
        Map.of("definition", "classpath:/sources/mangapill.json", "cookie", "x")), scraper()))
        .hasMessage("invalid configuration: scraper.sources.mp.options.cookie: is not a known key for type html "
            + "(known: definition)");
  }

  @Test
  void aBrokenDefinitionStopsStartUpNamingTheSourceTheFileAndTheKey() throws Exception {
    Files.createDirectories(dir.resolve("conf/sources"));
    Files.writeString(dir.resolve("conf/sources/broken.json"), "{\"name\": \"Broken\", \"baseUrl\": \"https://x.test\"}");

    assertThatThrownBy(() -> Sources.resolve("broken", configured(null, null, null, null,
        Map.of("definition", "conf/sources/broken.json")), scraper(), dir))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("invalid configuration: scraper.sources.broken.options.definition: conf/sources/broken.json: "
            + "titleUrl: is required");
  }

  @Test
  void htmlSourcesAreBuiltThroughResolveOnly() {
    assertThatThrownBy(() -> Sources.create("mp", configured(null, null, null, null, MANGAPILL), scraper(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Sources.resolve");
  }
}
