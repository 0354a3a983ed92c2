package io.mangacircus.scraper.source.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/** The shipped MangaPill definition (and small variations) against small HTML strings. */
class HtmlExtractionTest {

  private static final String BASE = "https://mangapill.com";
  private static final String TITLE_URL = BASE + "/manga/2/one-piece";

  private final HtmlExtraction mangapill = new HtmlExtraction(HtmlDefinitions.load("classpath:/sources/mangapill.json",
      Path.of(".")));

  private static Document page(String html, String url) {
    return Jsoup.parse(html, url);
  }

  private static String titlePage(String chapterLinks) {
    return """
        <html><head><title>One Piece - MangaPill</title></head><body>
        <div class="container"><div class="flex"><div class="mb-3">
          <h1 class="font-bold text-lg md:text-2xl">One Piece</h1>
          <div class="text-sm text-secondary">ワンピース</div></div></div>
        <div id="chapters" data-filter-list><div class="grid">%s</div></div></div></body></html>
        """.formatted(chapterLinks);
  }

  private static String link(String id, String slug, String number) {
    return "<a class=\"border border-border p-1\" href=\"/chapters/" + id + "/" + slug + "-chapter-" + number
        + "\" title=\"One Piece Chapter " + number + "\">Chapter " + number + "</a>";
  }

  @Test
  void aMangaPillTitlePageGivesTheTitleAndItsChaptersInReadingOrder() {
    Document document = page(titlePage(link("2-10002000", "one-piece", "2") + link("2-10001500", "one-piece", "1.5")
        + link("2-10001000", "one-piece", "1")), TITLE_URL);

    FetchOutcome<HtmlExtraction.ListPage> listed = mangapill.listPage(document, BASE);

    assertThat(listed.ok()).as(listed.describe()).isTrue();
    assertThat(listed.value().title()).isEqualTo("One Piece");
    assertThat(listed.value().next()).as("no pagination in the MangaPill definition").isNull();
    TitleInfo info = mangapill.titleInfo("2/one-piece", listed.value().title(), listed.value().chapters()).value();
    assertThat(info.chapters()).containsExactly(
        new ChapterInfo("2-10001000/one-piece-chapter-1", "1", "", "en"),
        new ChapterInfo("2-10001500/one-piece-chapter-1.5", "1.5", "", "en"),
        new ChapterInfo("2-10002000/one-piece-chapter-2", "2", "", "en"));
  }

  @Test
  void titleIdsComeFromTitleUrlsOrAreTakenAsGiven() {
    assertThat(mangapill.titleIdOf("https://mangapill.com/manga/2/one-piece")).isEqualTo("2/one-piece");
    assertThat(mangapill.titleIdOf(" https://mangapill.com/manga/2/one-piece/?tab=chapters ")).isEqualTo("2/one-piece");
    assertThat(mangapill.titleIdOf("/manga/723")).isEqualTo("723");
    assertThat(mangapill.titleIdOf("2/one-piece")).isEqualTo("2/one-piece");
    assertThat(mangapill.titleUrl(BASE, "2/one-piece")).isEqualTo(TITLE_URL);
    assertThat(mangapill.chapterUrl(BASE, "2/one-piece", "2-10001000/one-piece-chapter-1"))
        .isEqualTo(BASE + "/chapters/2-10001000/one-piece-chapter-1");
  }

  @Test
  void onlyIdsThatCanGoIntoAUrlAsTheyAreAreUsable() {
    assertThat(HtmlExtraction.usableId("2-10001000/one-piece-chapter-1")).isTrue();
    assertThat(HtmlExtraction.usableId("../../admin")).isFalse();
    assertThat(HtmlExtraction.usableId("a/./b")).isFalse();
    assertThat(HtmlExtraction.usableId("%2e%2e")).isFalse();
    assertThat(HtmlExtraction.usableId("a b")).isFalse();
    assertThat(HtmlExtraction.usableId("https://evil.test/x")).isFalse();
    assertThat(HtmlExtraction.usableId("")).isFalse();
    assertThat(HtmlExtraction.usableId("x".repeat(201))).isFalse();
  }

  @Test
  void aChangedTitlePageNamesTheSelectorThatMatchedNothing() {
    String redesigned = titlePage("").replace("id=\"chapters\"", "id=\"chapter-list\"")
        .replace("<div class=\"grid\"></div>", "<ul><li><a href=\"/chapter/2-1\">Chapter 1</a></li></ul>");

    FetchOutcome<HtmlExtraction.ListPage> listed = mangapill.listPage(page(redesigned, TITLE_URL), BASE);

    assertThat(listed).isEqualTo(new FetchOutcome.ParseError<>(
        "selector '#chapters a[href]' (chapters.item) matched nothing on /manga/2/one-piece"));
  }

  @Test
  void aTitlePageWithoutItsHeadingNamesTheTitleSelector() {
    FetchOutcome<HtmlExtraction.ListPage> listed = mangapill.listPage(
        page(titlePage(link("2-1", "x", "1")).replaceAll("</?h1[^>]*>", ""), TITLE_URL), BASE);

    assertThat(listed.describe()).isEqualTo("parse error: selector 'h1' (title.selector) matched nothing on "
        + "/manga/2/one-piece");
  }

  @Test
  void aChapterLinkThatDoesNotFitThePatternNamesThePatternAndTheItem() {
    FetchOutcome<HtmlExtraction.ListPage> listed = mangapill.listPage(page(titlePage(link("2-1", "x", "1")
        + "<a href=\"/chapters/2-2/x-chapter-two\">Chapter two</a>"), TITLE_URL), BASE);

    assertThat(listed.describe()).isEqualTo("parse error: pattern '-chapter-(?<value>[0-9]+(?:\\.[0-9]+)?)$' "
        + "(chapters.number.pattern) did not match '/chapters/2-2/x-chapter-two' in item 2 of '#chapters a[href]' on "
        + "/manga/2/one-piece");
  }

  @Test
  void aChapterIdThatCannotGoIntoAUrlIsRefused() {
    HtmlExtraction loose = new HtmlExtraction(HtmlDefinitions.parse(HtmlDefinitionsTest.minimal().encode()
        .getBytes(StandardCharsets.UTF_8), "test.json"));
    String html = "<h1>T</h1><div id=chapters><a href=\"/chapters/../../admin\">1</a></div>";

    FetchOutcome<HtmlExtraction.ListPage> listed = loose.listPage(page(html, "https://example.test/manga/1"),
        "https://example.test");

    assertThat(listed.describe()).contains("chapter id '../../admin' (chapters.id)", "cannot go into a URL");
  }

  @Test
  void aChapterPageGivesItsLazyImagesInOrderWithAbsoluteUrls() {
    String html = """
        <chapter-page><div><picture>
          <img class="js-page" data-src="https://cdn.example.test/file/mangap/2/10001000/1.jpeg" alt="1">
        </picture></div><div><picture>
          <img class="js-page" data-src="" src="/file/mangap/2/10001000/2.png" alt="2">
        </picture></div><div><picture>
          <img class="js-page" data-src="3.jpeg?token=abc" alt="3">
        </picture></div><img class="ad" src="/ads/banner.gif"></chapter-page>
        """;

    FetchOutcome<List<PageRef>> pages = mangapill.pages(page(html, BASE + "/chapters/2-10001000/one-piece-chapter-1"));

    assertThat(pages.ok()).as(pages.describe()).isTrue();
    assertThat(pages.value()).containsExactly(
        new PageRef(1, "/file/mangap/2/10001000/1.jpeg", "https://cdn.example.test/file/mangap/2/10001000/1.jpeg"),
        new PageRef(2, "/file/mangap/2/10001000/2.png", BASE + "/file/mangap/2/10001000/2.png"),
        new PageRef(3, "/chapters/2-10001000/3.jpeg", BASE + "/chapters/2-10001000/3.jpeg?token=abc"));
  }

  @Test
  void aChangedChapterPageNamesTheImageSelector() {
    String html = "<div class=\"reader\"><img class=\"page-image\" src=\"/1.jpg\"></div>";

    assertThat(mangapill.pages(page(html, BASE + "/chapters/2-1/x-chapter-1")).describe()).isEqualTo(
        "parse error: selector 'img.js-page' (pages.image) matched nothing on /chapters/2-1/x-chapter-1");
  }

  @Test
  void anImageWithoutAnyOfTheAttributesOrWithAScriptUrlIsAParserFailure() {
    String where = BASE + "/chapters/2-1/x-chapter-1";

    assertThat(mangapill.pages(page("<img class=js-page data-original=/1.jpg>", where)).describe())
        .isEqualTo("parse error: image 1 of 'img.js-page' on /chapters/2-1/x-chapter-1 has none of data-src, src "
            + "(pages.attributes)");
    assertThat(mangapill.pages(page("<img class=js-page data-src=\"javascript:alert(1)\">", where)).describe())
        .contains("has an unusable URL 'javascript:alert(1)'");
    assertThat(mangapill.pages(page("<img class=js-page data-src=\"file:///etc/passwd\">", where)).describe())
        .contains("has an unusable URL");
  }

  @Test
  void hostileHtmlGivesValuesNeverExceptions() {
    StringBuilder deep = new StringBuilder("<h1>Deep</h1><div id=chapters>");
    deep.append("<div>".repeat(20_000)).append(link("2-1", "x", "1")).append("</div>".repeat(20_000)).append("</div>");
    String scripted = "<h1>T</h1><div id=chapters><script>document.write('<a href=\"/chapters/9-9/x-chapter-9\">')"
        + "</script></div>";
    String garbage = "\u0000\uFFFF<<<>>>&&&;<a href=\"\"\"\"><h1 <div id=chapters </html></html><body><body>";
    String hugeAttribute = "<h1>T</h1><div id=chapters><a href=\"/chapters/" + "a".repeat(1_000_000)
        + "/x-chapter-1\">1</a></div>";

    assertThat(mangapill.listPage(page(deep.toString(), TITLE_URL), BASE).ok()).isTrue();
    assertThat(mangapill.listPage(page(scripted, TITLE_URL), BASE).describe())
        .as("script text is not markup").contains("selector '#chapters a[href]' (chapters.item) matched nothing");
    assertThat(mangapill.listPage(page(garbage, TITLE_URL), BASE)).isInstanceOf(FetchOutcome.ParseError.class);
    FetchOutcome<HtmlExtraction.ListPage> huge = mangapill.listPage(page(hugeAttribute, TITLE_URL), BASE);
    assertThat(huge).isInstanceOf(FetchOutcome.ParseError.class);
    assertThat(huge.describe()).hasSizeLessThan(600);
  }

  @Test
  void paginationFollowsTheNextLinkOnTheSiteOnly() {
    JsonObject json = HtmlDefinitionsTest.minimal();
    json.getJsonObject("chapters").put("pagination", new JsonObject().put("next", "a[rel=next]"));
    HtmlExtraction paged = new HtmlExtraction(HtmlDefinitions.parse(json.encode().getBytes(StandardCharsets.UTF_8),
        "test.json"));
    String list = "<h1>T</h1><div id=chapters><a href=\"/chapters/1-1\">1</a></div>";

    assertThat(paged.listPage(page(list + "<a rel=next href=\"?page=2\">Next</a>",
        "https://example.test/manga/1"), "https://example.test").value().next())
        .isEqualTo("https://example.test/manga/1?page=2");
    assertThat(paged.listPage(page(list, "https://example.test/manga/1?page=2"), "https://example.test").value()
        .next()).as("no next link: the last page").isNull();
    assertThat(paged.listPage(page(list + "<a rel=next href=\"https://elsewhere.test/manga/1?page=2\">Next</a>",
        "https://example.test/manga/1"), "https://example.test").describe())
        .contains("(chapters.pagination.next)", "does not lead to a page of https://example.test");
  }

  @Test
  void overlappingListPagesKeepTheFirstListingOfAChapter() {
    List<ChapterInfo> listed = List.of(new ChapterInfo("c1", "1", "", "en"), new ChapterInfo("c2", "2", "", "en"),
        new ChapterInfo("c2", "2", "again", "en"), new ChapterInfo("c3", "3", "", "en"));
    HtmlExtraction oldestFirst = new HtmlExtraction(HtmlDefinitions.parse(HtmlDefinitionsTest.minimal().encode()
        .getBytes(StandardCharsets.UTF_8), "test.json"));

    assertThat(oldestFirst.titleInfo("t", "T", listed).value().chapters()).extracting(ChapterInfo::id)
        .containsExactly("c1", "c2", "c3");
    assertThat(oldestFirst.titleInfo("t", "T", listed).value().chapters().get(1).title()).isEmpty();
  }

  /** The minimal definition with a chapter language read from each item's flag. */
  private static HtmlExtraction multilingual(String defaultLanguage) {
    JsonObject json = HtmlDefinitionsTest.minimal().put("language", defaultLanguage);
    json.getJsonObject("chapters").put("language", new JsonObject().put("selector", "img.flag")
        .put("attribute", "class").put("pattern", "flag-(?<value>[A-Za-z_-]+)"));
    return new HtmlExtraction(HtmlDefinitions.parse(json.encode().getBytes(StandardCharsets.UTF_8), "test.json"));
  }

  @Test
  void chaptersOfASiteListingSeveralLanguagesCarryTheLanguageTheirItemShowsElseTheDefinitions() {
    String html = "<h1>T</h1><div id=chapters>"
        + "<a href=\"/chapters/1-en\">1 <img class=\"flag flag-en\"></a>"
        + "<a href=\"/chapters/1-fr\">1 <img class=\"flag flag-fr\"></a>"
        + "<a href=\"/chapters/1-br\">1 <img class=\"flag flag-pt_BR\"></a>"
        + "<a href=\"/chapters/2-x\">2</a></div>";

    FetchOutcome<HtmlExtraction.ListPage> listed = multilingual("ja").listPage(
        page(html, "https://example.test/manga/1"), "https://example.test");

    assertThat(listed.ok()).as(listed.describe()).isTrue();
    assertThat(listed.value().chapters()).extracting(ChapterInfo::language)
        .as("an item without a flag is in the definition's language").containsExactly("en", "fr", "pt-br", "ja");
    TitleInfo info = multilingual("ja").titleInfo("1", "T", listed.value().chapters()).value();
    assertThat(info.languages()).as("what the Add titles page offers").containsExactly("en", "fr", "pt-br", "ja");
  }

  @Test
  void aChapterLanguageThatIsNotALanguageCodeIsAParserFailureNamingTheKeyAndTheItem() {
    String html = "<h1>T</h1><div id=chapters><a href=\"/chapters/1\">1 <img class=\"flag flag-English\"></a></div>";

    assertThat(multilingual("en").listPage(page(html, "https://example.test/manga/1"), "https://example.test")
        .describe()).isEqualTo("parse error: 'English' (chapters.language) in item 1 of '#chapters a[href]' on "
            + "/manga/1 is not a language code such as en or pt-br");
  }

  @Test
  void aSingleLanguageSiteListsEveryChapterAndTheTitleInItsDefinitionsLanguage() {
    HtmlExtraction french = new HtmlExtraction(HtmlDefinitions.parse(HtmlDefinitionsTest.minimal()
        .put("language", "fr").encode().getBytes(StandardCharsets.UTF_8), "test.json"));
    String html = "<h1>T</h1><div id=chapters><a href=\"/chapters/1\">1</a><a href=\"/chapters/2\">2</a></div>";

    List<ChapterInfo> chapters = french.listPage(page(html, "https://example.test/manga/1"), "https://example.test")
        .value().chapters();

    assertThat(chapters).extracting(ChapterInfo::language).containsExactly("fr", "fr");
    assertThat(french.titleInfo("1", "T", chapters).value().languages()).containsExactly("fr");
  }
}
