package io.mangacircus.scraper.source.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlDefinitionsTest {

  private static final String WHERE = "conf/sources/test.json";

  @TempDir
  Path dir;

  /** The smallest complete definition; each test breaks one thing. */
  static JsonObject minimal() {
    return new JsonObject()
        .put("name", "Test site")
        .put("baseUrl", "https://example.test")
        .put("titleUrl", "/manga/{titleId}")
        .put("chapterUrl", "/chapters/{chapterId}")
        .put("title", new JsonObject().put("selector", "h1"))
        .put("chapters", new JsonObject().put("item", "#chapters a[href]")
            .put("id", new JsonObject().put("attribute", "href").put("pattern", "/chapters/(?<value>[^?#]+)"))
            .put("number", new JsonObject().put("pattern", "(?<value>[0-9.]+)")))
        .put("pages", new JsonObject().put("image", "img.js-page"));
  }

  private static HtmlDefinition parse(JsonObject json) {
    return HtmlDefinitions.parse(json.encodePrettily().getBytes(StandardCharsets.UTF_8), WHERE);
  }

  private static HtmlDefinition parse(Consumer<JsonObject> change) {
    JsonObject json = minimal();
    change.accept(json);
    return parse(json);
  }

  @Test
  void aMinimalDefinitionGetsItsDefaults() {
    HtmlDefinition d = parse(minimal());

    assertThat(d.language()).isEqualTo("en");
    assertThat(d.title().attribute()).isEqualTo("text");
    assertThat(d.chapters().order()).isEqualTo("oldest-first");
    assertThat(d.chapters().id().selector()).as("the item itself").isEmpty();
    assertThat(d.chapters().pagination()).isNull();
    assertThat(d.pages().attributes()).containsExactly("data-src", "src");
    assertThat(d.pages().referer()).isTrue();
    assertThat(d.pacing().pageDelayMs()).isNull();
    assertThat(d.challengeMarkers()).isEmpty();
    assertThat(d.seriesFolderPrefix()).isEmpty();
    assertThat(new HtmlExtraction(d).titleIdOf("https://example.test/manga/12/some-title/"))
        .as("without titleIdPattern the id is what titleUrl puts at {titleId}").isEqualTo("12/some-title");
  }

  @Test
  void theShippedMangaPillDefinitionLoadsFromTheJarAndFromTheConfFolder() {
    Path repository = Path.of("").toAbsolutePath().getParent();

    HtmlDefinition fromJar = HtmlDefinitions.load("classpath:/sources/mangapill.json", dir);
    HtmlDefinition fromFile = HtmlDefinitions.load("conf/sources/mangapill.json", repository);

    assertThat(fromFile).isEqualTo(fromJar);
    assertThat(fromJar.baseUrl()).isEqualTo("https://mangapill.com");
    assertThat(fromJar.seriesFolderPrefix()).isEqualTo("mangapill-");
    assertThat(fromJar.chapters().order()).isEqualTo("newest-first");
    assertThat(fromJar.pages().image()).isEqualTo("img.js-page");
    assertThat(fromJar.pacing().pageDelayMs()).isEqualTo(1500L);
  }

  @Test
  void aRelativePathStartsAtTheWorkingDirectory() throws Exception {
    Files.createDirectories(dir.resolve("conf/sources"));
    Files.writeString(dir.resolve("conf/sources/mine.json"), minimal().encode());

    assertThat(HtmlDefinitions.load("conf/sources/mine.json", dir).name()).isEqualTo("Test site");
    assertThat(HtmlDefinitions.load(dir.resolve("conf/sources/mine.json").toString(), Path.of("/nowhere")).name())
        .as("an absolute path is taken as it is").isEqualTo("Test site");
  }

  @Test
  void aMissingFileNamesWhereItWasLookedFor() {
    assertThatThrownBy(() -> HtmlDefinitions.load("conf/sources/absent.json", dir))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageStartingWith("conf/sources/absent.json: (file): does not exist")
        .hasMessageContaining(dir.resolve("conf/sources/absent.json").toString());
    assertThatThrownBy(() -> HtmlDefinitions.load("classpath:/sources/absent.json", dir))
        .hasMessage("classpath:/sources/absent.json: (file): no such definition on the classpath");
  }

  @Test
  void badJsonNamesTheFileLineAndColumn() {
    assertThatThrownBy(() -> HtmlDefinitions.parse("{\n  \"name\": \"x\",\n  \"baseUrl\" \"y\"\n}"
        .getBytes(StandardCharsets.UTF_8), WHERE))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageStartingWith(WHERE + ": (file): not valid JSON at line 3, column");
    assertThatThrownBy(() -> HtmlDefinitions.parse(new byte[0], WHERE)).hasMessageStartingWith(WHERE + ": (file):");
    assertThatThrownBy(() -> HtmlDefinitions.parse("[1, 2]".getBytes(StandardCharsets.UTF_8), WHERE))
        .hasMessageStartingWith(WHERE + ": (file): must hold one JSON object");
  }

  @Test
  void anUnknownKeyIsRefusedWithItsPathAndTheKnownKeys() {
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").put("itme", "li")))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageStartingWith(WHERE + ": chapters.itme: is not a known key (known here: id, item, language, number, "
            + "order, pagination, title)");
    assertThatThrownBy(() -> parse(json -> json.put("cookies", "session=1")))
        .hasMessageStartingWith(WHERE + ": cookies: is not a known key");
  }

  @Test
  void aDuplicateKeyIsRefused() {
    assertThatThrownBy(() -> HtmlDefinitions.parse(("{\"name\": \"a\", \"name\": \"b\"}").getBytes(StandardCharsets.UTF_8),
        WHERE)).hasMessageContaining("Duplicate field 'name'");
  }

  @Test
  void aMissingSelectorIsNamedByItsKey() {
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("pages").remove("image")))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessage(WHERE + ": pages.image: is required (a CSS selector)");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").remove("item")))
        .hasMessage(WHERE + ": chapters.item: is required (a CSS selector)");
    assertThatThrownBy(() -> parse(json -> json.put("title", new JsonObject().put("attribute", "text"))))
        .hasMessage(WHERE + ": title.selector: is required (a CSS selector)");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").remove("number")))
        .hasMessage(WHERE + ": chapters.number: is required");
    assertThatThrownBy(() -> parse(json -> json.remove("chapters")))
        .hasMessage(WHERE + ": chapters: is required");
  }

  @Test
  void aSelectorJsoupCannotParseIsRefused() {
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").put("item", "ul#chapters a[")))
        .hasMessageStartingWith(WHERE + ": chapters.item: 'ul#chapters a[' is not a CSS selector jsoup understands");
  }

  @Test
  void patternsMustCompileAndHaveTheirNamedGroup() {
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").getJsonObject("id").put("pattern", "(")))
        .hasMessageStartingWith(WHERE + ": chapters.id.pattern: is not a valid regex");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").getJsonObject("id")
        .put("pattern", "/chapters/([0-9]+)")))
        .hasMessage(WHERE + ": chapters.id.pattern: must have a named group (?<value>...)");
    assertThatThrownBy(() -> parse(json -> json.put("titleIdPattern", "/manga/(?<value>[0-9]+)")))
        .hasMessage(WHERE + ": titleIdPattern: must have a named group (?<id>...)");
  }

  @Test
  void urlTemplatesStayOnTheSiteAndNameTheirPlaceholder() {
    assertThatThrownBy(() -> parse(json -> json.put("titleUrl", "/manga/")))
        .hasMessage(WHERE + ": titleUrl: must contain {titleId}");
    assertThatThrownBy(() -> parse(json -> json.put("chapterUrl", "https://elsewhere.test/c/{chapterId}")))
        .hasMessageStartingWith(WHERE + ": chapterUrl: must be a path below the base URL");
    assertThatThrownBy(() -> parse(json -> json.put("chapterUrl", "//elsewhere.test/c/{chapterId}")))
        .hasMessageStartingWith(WHERE + ": chapterUrl: must be a path below the base URL");
    assertThatThrownBy(() -> parse(json -> json.put("chapterUrl", "/c/{chapter}")))
        .hasMessageStartingWith(WHERE + ": chapterUrl: {chapter} is not a placeholder here");
    assertThatThrownBy(() -> parse(json -> json.put("baseUrl", "ftp://example.test")))
        .hasMessageStartingWith(WHERE + ": baseUrl: must be http(s)://host[:port]");
    assertThat(parse(json -> json.put("baseUrl", "http://127.0.0.1:8089/")).baseUrl())
        .isEqualTo("http://127.0.0.1:8089");
  }

  @Test
  void valuesOfTheWrongTypeOrOutOfRangeAreRefused() {
    assertThatThrownBy(() -> parse(json -> json.put("pacing", new JsonObject().put("pageDelayMs", "fast"))))
        .hasMessageStartingWith(WHERE + ": pacing.pageDelayMs: has the wrong type");
    assertThatThrownBy(() -> parse(json -> json.put("pacing", new JsonObject().put("pageDelayMs", -1))))
        .hasMessage(WHERE + ": pacing.pageDelayMs: must be between 0 and 600000 ms");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters")
        .put("pagination", new JsonObject().put("next", "a.next").put("maxPages", 0))))
        .hasMessage(WHERE + ": chapters.pagination.maxPages: must be between 1 and 100, got 0");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").put("order", "random")))
        .hasMessageStartingWith(WHERE + ": chapters.order: must be oldest-first or newest-first");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("pages").put("attributes", new JsonArray())))
        .hasMessageStartingWith(WHERE + ": pages.attributes: must list 1 to 10 attribute names");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("pages")
        .put("attributes", new JsonArray().add("data-src").add("src onerror"))))
        .hasMessageStartingWith(WHERE + ": pages.attributes[1]: must be an attribute name");
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("pages").put("referer", "yes")))
        .hasMessageStartingWith(WHERE + ": pages.referer: has the wrong type");
    assertThatThrownBy(() -> parse(json -> json.put("seriesFolderPrefix", "../mangapill")))
        .hasMessageStartingWith(WHERE + ": seriesFolderPrefix: must be lower-case letters, digits and dashes");
    assertThatThrownBy(() -> parse(json -> json.put("challengeMarkers", new JsonArray().add(" "))))
        .hasMessage(WHERE + ": challengeMarkers[0]: must be a non-empty text");
  }

  @Test
  void everyOptionalPartIsKeptAsWritten() {
    HtmlDefinition d = parse(json -> {
      json.getJsonObject("chapters").put("order", "newest-first")
          .put("title", new JsonObject().put("selector", "span.title"))
          .put("pagination", new JsonObject().put("next", "a[rel=next]"));
      json.put("pacing", new JsonObject().put("pageDelayMs", 700).put("chapterDelayMs", 3000))
          .put("challengeMarkers", new JsonArray().add("are you human"))
          .put("seriesFolderPrefix", "site-")
          .put("language", "en");
    });

    assertThat(d.chapters().pagination()).isEqualTo(new HtmlDefinition.Pagination("a[rel=next]", 20));
    assertThat(d.chapters().title().selector()).isEqualTo("span.title");
    assertThat(d.pacing()).isEqualTo(new HtmlDefinition.Pacing(700L, 3000L));
    assertThat(d.challengeMarkers()).isEqualTo(List.of("are you human"));
    assertThat(d.seriesFolderPrefix()).isEqualTo("site-");
  }

  @Test
  void aDefinitionsLanguageIsStoredAsJobsAskForItAndANameIsRefusedNamingFileAndKey() {
    assertThat(parse(json -> json.put("language", "pt-BR")).language()).isEqualTo("pt-br");
    assertThat(parse(json -> json.put("language", " pt_BR ")).language()).isEqualTo("pt-br");
    assertThat(parse(json -> json.put("language", "zh-hant-tw")).language()).isEqualTo("zh-hant-tw");

    assertThatThrownBy(() -> parse(json -> json.put("language", "French")))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessage(WHERE + ": language: must be an ISO 639-1 code or a BCP 47 tag such as en, fr or pt-br, got "
            + "'French'");
    assertThatThrownBy(() -> parse(json -> json.put("language", "")))
        .hasMessageStartingWith(WHERE + ": language: must be an ISO 639-1 code");
  }

  @Test
  void aChapterLanguageIsReadWithTheSameSelectorLanguageAndCheckedLikeTheOthers() {
    HtmlDefinition d = parse(json -> json.getJsonObject("chapters").put("language",
        new JsonObject().put("selector", "img.flag").put("attribute", "data-lang")));

    assertThat(d.chapters().language()).isEqualTo(new HtmlDefinition.Field("img.flag", "data-lang", null));
    assertThatThrownBy(() -> parse(json -> json.getJsonObject("chapters").put("language",
        new JsonObject().put("selector", "img.flag").put("pattern", "flag-(?<lang>[a-z]+)"))))
        .hasMessage(WHERE + ": chapters.language.pattern: must have a named group (?<value>...)");
  }

  static JsonObject searchBlock() {
    return new JsonObject().put("url", "/search?q={query}").put("item", ".results .result")
        .put("id", new JsonObject().put("selector", "a").put("attribute", "href"))
        .put("title", new JsonObject().put("selector", "a"))
        .put("cover", new JsonObject().put("selector", "img").put("attribute", "src"));
  }

  @Test
  void aSearchBlockIsOptionalAndReadWithTheSameSelectorLanguage() {
    assertThat(parse(minimal()).search()).as("without it the source cannot search").isNull();

    HtmlDefinition d = parse(json -> json.put("search", searchBlock()));

    assertThat(d.search().url()).isEqualTo("/search?q={query}");
    assertThat(d.search().id().attribute()).isEqualTo("href");
    assertThat(d.search().title().attribute()).isEqualTo("text");
    assertThat(d.search().cover().selector()).isEqualTo("img");
  }

  @Test
  void aBadSearchBlockIsRefusedNamingItsKey() {
    assertThatThrownBy(() -> parse(json -> json.put("search", searchBlock().put("url", "/search?q=fixed"))))
        .hasMessageContaining("search.url").hasMessageContaining("{query}");
    assertThatThrownBy(() -> parse(json -> json.put("search", searchBlock().put("url", "/s?q={title}"))))
        .hasMessageContaining("search.url").hasMessageContaining("{title} is not a placeholder");
    assertThatThrownBy(() -> parse(json -> json.put("search", searchBlock().put("item", "div[[["))))
        .hasMessageContaining("search.item").hasMessageContaining("not a CSS selector");
    assertThatThrownBy(() -> parse(json -> json.put("search", searchBlock().putNull("title"))))
        .hasMessageContaining("search.title").hasMessageContaining("required");
    assertThatThrownBy(() -> parse(json -> json.put("search", searchBlock()
        .put("id", new JsonObject().put("pattern", "no group"))))).hasMessageContaining("search.id.pattern");
    assertThatThrownBy(() -> parse(json -> json.put("search", searchBlock().put("sort", "name"))))
        .hasMessageContaining("sort").hasMessageContaining("not a known key");
  }
}
