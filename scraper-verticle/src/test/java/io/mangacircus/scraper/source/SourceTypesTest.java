package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.validate.PageValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceTypesTest {

  private static final Map<String, Object> MANGAPILL = Map.of("definition", "classpath:/sources/mangapill.json");

  @TempDir
  Path dir;

  /** As the config file would give it: only the keys named are set, the rest defaulted. */
  private static SourceConfig configured(String baseUrl, Long pageDelayMs, Long chapterDelayMs, List<String> markers,
      Map<String, Object> options) {
    return SourceConfig.fromJson("html", baseUrl, pageDelayMs, chapterDelayMs, markers, options, null);
  }

  @Test
  void onlyATypeWhoseTitlesHavePagesByIdGivesATitlePageAddress() {
    assertThat(SourceTypes.titlePage("mangadex")).hasValue("https://mangadex.org/title/{titleId}");
    assertThat(SourceTypes.titlePage("html")).isEmpty();
    assertThat(SourceTypes.titlePage("local")).isEmpty();
    assertThat(SourceTypes.titlePage("no-such-type")).isEmpty();
  }

  @Test
  void anHtmlSourceTakesTheDefinitionsBaseUrlPacingAndMarkersWhenItLeavesThemOut() {
    ResolvedSource resolved = SourceTypes.resolve("mangapill", configured(null, null, null, null, MANGAPILL));

    assertThat(resolved.config().baseUrl()).isEqualTo("https://mangapill.com");
    assertThat(resolved.config().pageDelayMs()).isEqualTo(1500);
    assertThat(resolved.config().chapterDelayMs()).isEqualTo(5000);
    assertThat(resolved.config().challengeMarkers()).containsAll(SourceConfig.DEFAULT_CHALLENGE_MARKERS)
        .contains("cf-browser-verification");
    assertThat(resolved.config().defaulted()).isEmpty();
    assertThat(resolved.seriesFolderPrefix()).isEqualTo("mangapill-");
    assertThat(resolved.description()).isEqualTo("definition 'MangaPill' (classpath:/sources/mangapill.json)");
  }

  @Test
  void whatTheSourceSetsWinsOverTheDefinition() {
    ResolvedSource resolved = SourceTypes.resolve("mp", configured("http://127.0.0.1:8089", 250L, 0L,
        List.of("my marker"), MANGAPILL));

    assertThat(resolved.config().baseUrl()).isEqualTo("http://127.0.0.1:8089");
    assertThat(resolved.config().pageDelayMs()).as("set explicitly, even to the built-in default").isEqualTo(250);
    assertThat(resolved.config().chapterDelayMs()).isZero();
    assertThat(resolved.config().challengeMarkers()).containsExactly("my marker", "cf-browser-verification",
        "attention required! | cloudflare");
  }

  @Test
  void otherTypesAreLeftAsConfigured() {
    SourceConfig demo = new SourceConfig("demo", "http://127.0.0.1:1", 0, 0);

    ResolvedSource resolved = SourceTypes.resolve("demo", demo);

    assertThat(resolved.config()).isSameAs(demo);
    assertThat(resolved.seriesFolderPrefix()).isEmpty();
  }

  @Test
  void optionsAreCheckedAndNamedByTheirConfigKey() {
    assertThatThrownBy(() -> SourceTypes.resolve("mp", configured(null, null, null, null, Map.of())))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageStartingWith("invalid configuration: scraper.sources.mp.options.definition: is required for type "
            + "html");
    assertThatThrownBy(() -> SourceTypes.resolve("mp", configured(null, null, null, null,
        Map.of("definition", "classpath:/sources/mangapill.json", "cookie", "x"))))
        .hasMessage("invalid configuration: scraper.sources.mp.options.cookie: is not a known key for type html "
            + "(known: definition)");
  }

  @Test
  void aBrokenDefinitionStopsStartUpNamingTheSourceTheFileAndTheKey() throws Exception {
    Files.createDirectories(dir.resolve("conf/sources"));
    Files.writeString(dir.resolve("conf/sources/broken.json"), "{\"name\": \"Broken\", \"baseUrl\": \"https://x.test\"}");

    assertThatThrownBy(() -> SourceTypes.resolve("broken", configured(null, null, null, null,
        Map.of("definition", "conf/sources/broken.json")), dir))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("invalid configuration: scraper.sources.broken.options.definition: conf/sources/broken.json: "
            + "titleUrl: is required");
  }

  @Test
  void anUnknownTypeIsRefusedNamingTheKeyAndListingTheKnownTypes() {
    SourceConfig typo = new SourceConfig("mangadx", "", 0, 0);

    assertThatThrownBy(() -> SourceTypes.resolve("md", typo))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("invalid configuration: scraper.sources.md.type: 'mangadx' is not a source type (known: "
            + String.join(", ", SourceTypes.names()) + ")")
        .hasMessageContaining("demo, html, local, mangadex");
    assertThatThrownBy(() -> SourceTypes.check("md", typo, false, dir))
        .isInstanceOf(InvalidConfigException.class).hasMessageContaining("scraper.sources.md.type");
  }

  @Test
  void theRegistryKnowsEachTypeOnceByName() {
    assertThat(List.copyOf(SourceTypes.names())).contains("demo", "html", "local", "mangadex").isSorted();
    assertThat(SourceTypes.names()).allSatisfy(name -> assertThat(SourceTypes.type("k", name).name()).isEqualTo(name));
  }

  @Test
  void everyTypeRefusesOptionsItDoesNotKnowWithTheSameKindOfError() throws Exception {
    Files.createDirectories(dir.resolve("shelf"));
    SourceConfig local = new SourceConfig("local", "", 0, 0, List.of(),
        Map.of("folder", dir.resolve("shelf").toString(), "recursive", true));
    SourceConfig mangadex = new SourceConfig("mangadex", "", 0, 0, List.of(), Map.of("dataSavr", true));

    assertThatThrownBy(() -> SourceTypes.resolve("shelf", local))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("invalid configuration: scraper.sources.shelf.options.recursive: is not a known key for type "
            + "local (known: folder, language)");
    assertThatThrownBy(() -> SourceTypes.resolve("md", mangadex))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageStartingWith("invalid configuration: scraper.sources.md.options.dataSavr: ");
    assertThatThrownBy(() -> SourceTypes.resolve("shelf", new SourceConfig("local", "", 0, 0, List.of(),
        Map.of("folder", dir.resolve("missing").toString()))))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageStartingWith("invalid configuration: scraper.sources.shelf.options.folder: ")
        .hasMessageEndingWith("is not a folder");
  }

  @Test
  void theBaseUrlIsCheckedUnlessTheTypeNeedsNoneOrHasADefault() throws Exception {
    Files.createDirectories(dir.resolve("shelf"));

    assertThat(SourceTypes.check("md", new SourceConfig("mangadex", "", 0, 0), false, dir).baseUrl())
        .as("left empty: the API's default root").isEmpty();
    assertThat(SourceTypes.check("shelf", new SourceConfig("local", "", 0, 0, List.of(),
        Map.of("folder", dir.resolve("shelf").toString())), false, dir)).isNotNull();
    assertThat(SourceTypes.check("demo", new SourceConfig("demo", "", 0, 0), true, dir)).isNotNull();
    assertThatThrownBy(() -> SourceTypes.check("demo", new SourceConfig("demo", "", 0, 0), false, dir))
        .hasMessage("invalid configuration: scraper.sources.demo.baseUrl: must be an http(s) URL");
    assertThatThrownBy(() -> SourceTypes.check("md", new SourceConfig("mangadex", "ftp://x", 0, 0), false, dir))
        .hasMessage("invalid configuration: scraper.sources.md.baseUrl: must be an http(s) URL (or left out to use "
            + "https://api.mangadex.org)");
    assertThat(SourceTypes.check("mp", configured(null, null, null, null, MANGAPILL), false, dir).baseUrl())
        .isEqualTo("https://mangapill.com");
  }

  @Test
  void aSourcesPageValidationIsStructureByDefaultKeptThroughItsTypeAndAnythingElseIsRefused() throws Exception {
    SourceConfig decode = SourceConfig.fromJson("html", null, null, null, null, MANGAPILL, "decode");
    SourceConfig typo = SourceConfig.fromJson("mangadex", null, null, null, null, null, "full");

    assertThat(configured(null, null, null, null, MANGAPILL).validationMode()).isEqualTo(PageValidator.Mode.STRUCTURE);
    assertThat(SourceTypes.resolve("mangapill", decode).config().validationMode())
        .as("the html type rebuilds the settings from its definition").isEqualTo(PageValidator.Mode.DECODE);
    assertThat(SourceTypes.check("mangapill", decode, false, dir).validation()).isEqualTo("decode");
    assertThatThrownBy(() -> SourceTypes.check("md", typo, false, dir))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("invalid configuration: scraper.sources.md.validation: must be \"structure\" (the default: each "
            + "page's format walked to its end, no decode) or \"decode\" (a full decode of every page as well), got "
            + "\"full\"");
    assertThatThrownBy(() -> SourceTypes.resolve("md", typo)).isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining("scraper.sources.md.validation");
  }
}
