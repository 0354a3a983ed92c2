package io.mangacircus.launcher.sources;

import io.mangacircus.testing.MangaDexApi;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.TestImages;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Finding, previewing, adding and following a title from the browser, against a fake MangaDex on loopback (search
 * results with covers, a title whose English chapters come from two groups and which has a French one, at-home and
 * pages) and a second MangaDex source whose search fails: the admin searches "starfall", sees covers and the broken
 * source's problem beside the other results, previews a title, adds it in English preferring one group and follows it;
 * the chapters download, the library card shows the unread count, reading one chapter lowers it. Once on a desktop
 * and once at 390×844 (another title), where no page may scroll sideways and the first title's result now says it is
 * in the library. One launcher and one browser serve both (cookies and storage cleared between them).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("browser")
class AddTitlesBrowserIT {

  private static final String PASSWORD = "add-titles-admin-pass";
  private static final String TOKEN = "add-titles-it-token-0123";
  private static final String SOURCE = "mangadex";
  private static final String BROKEN = "mangadex-down";
  private static final int CIRCUS = 0x5f;
  private static final int EXPRESS = 0x60;
  private static final String LANTERN = "aaaaaaaa-1111-4000-8000-000000000001";
  private static final String OWLS = "aaaaaaaa-2222-4000-8000-000000000002";
  private static final String LUNE = "aaaaaaaa-3333-4000-8000-000000000003";

  @TempDir
  static Path data;

  private final WireMockServer api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private LauncherHarness harness;
  private AdminApi admin;
  private Browser browser;
  private WebDriver driver;
  private final Set<String> added = new java.util.HashSet<>();

  @BeforeAll
  void start() {
    api.start();
    stubSearch();
    stubTitle(CIRCUS, "Starfall Circus");
    stubTitle(EXPRESS, "Starfall Express");
    // The second source's search fails; one failure opens its circuit.
    api.stubFor(get(urlPathMatching("/down/.*")).willReturn(aResponse().withStatus(500)));
    JsonObject scraper = new JsonObject().put("claimPollMs", 50)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("failures", new JsonObject().put("retryBackoffMs", 50).put("circuitMaxFailures", 1))
        .put("sources", new JsonObject()
            .put(SOURCE, new JsonObject().put("type", "mangadex").put("baseUrl", api.baseUrl())
                .put("pageDelayMs", 0).put("chapterDelayMs", 0))
            .put(BROKEN, new JsonObject().put("type", "mangadex").put("baseUrl", api.baseUrl() + "/down")
                .put("pageDelayMs", 0).put("chapterDelayMs", 0)));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN)
        .put("initialAdminPassword", PASSWORD)).put("scraper", scraper).encode()).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
    browser = new Browser();
    driver = browser.driver();
  }

  @AfterAll
  void stop() throws Exception {
    try {
      Browser.closeAll(browser, harness);
    } finally {
      api.stop();
    }
  }

  @BeforeEach
  void forgetThePreviousTest() {
    browser.size(1366, 900);
    driver.get(harness.url("/login.html"));
    driver.manage().deleteAllCookies();
    js("window.localStorage.clear(); window.sessionStorage.clear();");
  }

  @AfterEach
  void noPageBrokeThePolicy() {
    assertThat(browser.cspViolations()).as("every page stayed within the Content-Security-Policy").isEmpty();
  }

  // ---- the fake MangaDex ------------------------------------------------------------------------------------------

  private static String id(int title) {
    return FakeMangaDex.titleId(title);
  }

  private static String coverFile(int title) {
    return "cover-" + title + ".jpg";
  }

  private static JsonObject manga(int title, String name) {
    return new JsonObject().put("id", id(title)).put("type", "manga").put("attributes", new JsonObject()
            .put("title", new JsonObject().put("en", name))
            .put("altTitles", new JsonArray().add(new JsonObject().put("ja", name + " (ja)")))
            .put("description", new JsonObject().put("en", name + ": acrobats under a falling star."))
            .put("tags", new JsonArray().add(new JsonObject().put("id", "t1").put("type", "tag")
                .put("attributes", new JsonObject().put("name", new JsonObject().put("en", "Drama")))))
            .put("year", 2021).put("status", "ongoing").put("contentRating", "safe")
            .put("availableTranslatedLanguages", new JsonArray().add("en").add("fr")))
        .put("relationships", new JsonArray().add(new JsonObject().put("id", "c0ffee00-0000-4000-8000-0000000000"
            + title).put("type", "cover_art").put("attributes", new JsonObject().put("fileName", coverFile(title)))));
  }

  /** Search answers with two titles, each with its cover art; the covers themselves as JPEGs. */
  private void stubSearch() {
    JsonArray found = new JsonArray().add(manga(CIRCUS, "Starfall Circus")).add(manga(EXPRESS, "Starfall Express"));
    api.stubFor(get(urlPathEqualTo("/manga")).willReturn(FakeMangaDex.json(new JsonObject().put("result", "ok")
        .put("response", "collection").put("data", found).put("limit", 20).put("offset", 0).put("total", 2))));
    for (int title : new int[] {CIRCUS, EXPRESS}) {
      api.stubFor(get(urlPathEqualTo("/covers/" + id(title) + "/" + coverFile(title) + ".256.jpg"))
          .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "image/jpeg")
              .withBody(TestImages.image("jpg", 200, 300, title))));
    }
  }

  /**
   * A title whose chapter 1 exists in English from Lantern and from Owls, chapter 2 in English from Owls only, and
   * chapter 1 in French from Lune: the feed of every language (the preview), the English feed (the download), nothing
   * scheduled, and every chapter's at-home answer and one page.
   */
  private void stubTitle(int title, String name) {
    api.stubFor(get(urlPathEqualTo("/manga/" + id(title))).willReturn(FakeMangaDex.json(new JsonObject()
        .put("result", "ok").put("response", "entity").put("data", manga(title, name)))));
    JsonObject lantern1 = chapter(title, 1, "1", "en", LANTERN, "Lantern Scans", "2024-01-01T10:00:00+00:00");
    JsonObject owls1 = chapter(title, 2, "1", "en", OWLS, "Night Owls", "2024-01-02T10:00:00+00:00");
    JsonObject owls2 = chapter(title, 3, "2", "en", OWLS, "Night Owls", "2024-01-03T10:00:00+00:00");
    JsonObject lune1 = chapter(title, 4, "1", "fr", LUNE, "Lune", "2024-01-04T10:00:00+00:00");
    MangaDexApi.stubScheduled(api, id(title), new JsonArray());
    api.stubFor(get(urlPathEqualTo("/manga/" + id(title) + "/feed")).atPriority(5)
        .willReturn(feed(new JsonArray().add(lantern1).add(owls1).add(owls2).add(lune1))));
    api.stubFor(get(urlPathEqualTo("/manga/" + id(title) + "/feed")).atPriority(3)
        .withQueryParam("translatedLanguage[]", equalTo("en"))
        .willReturn(feed(new JsonArray().add(lantern1).add(owls1).add(owls2))));
    for (int c = 1; c <= 4; c++) {
      atHome(title, c);
    }
  }

  /** A chapter's at-home answer and its two pages (reading it means reaching page 2). */
  private void atHome(int title, int chapter) {
    String hash = FakeMangaDex.hash(title, chapter);
    JsonArray files = new JsonArray().add("1-" + hash + ".png").add("2-" + hash + ".png");
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + FakeMangaDex.chapterId(title, chapter)))
        .willReturn(FakeMangaDex.json(new JsonObject().put("result", "ok")
            .put("baseUrl", api.baseUrl() + "/" + FakeMangaDex.NODE)
            .put("chapter", new JsonObject().put("hash", hash).put("data", files).put("dataSaver", files)))));
    for (int page = 0; page < 2; page++) {
      api.stubFor(get(urlPathEqualTo("/" + FakeMangaDex.NODE + "/data/" + hash + "/" + files.getString(page)))
          .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "image/png")
              .withBody(TestImages.image("png", title * 10_000 + chapter * 10 + page))));
    }
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder feed(JsonArray chapters) {
    return FakeMangaDex.json(new JsonObject().put("result", "ok").put("response", "collection").put("data", chapters)
        .put("limit", 100).put("offset", 0).put("total", chapters.size()));
  }

  private static JsonObject chapter(int title, int chapter, String number, String language, String group,
      String groupName, String at) {
    JsonObject entry = FakeMangaDex.chapter(title, chapter, language);
    entry.getJsonObject("attributes").put("chapter", number).put("publishAt", at).put("readableAt", at)
        .put("createdAt", at);
    entry.getJsonArray("relationships").add(new JsonObject().put("id", group).put("type", "scanlation_group")
        .put("attributes", new JsonObject().put("name", groupName)));
    return entry;
  }

  // ---- the browser ------------------------------------------------------------------------------------------------

  private WebDriverWait waiting(int seconds) {
    return browser.waiting(Duration.ofSeconds(seconds));
  }

  private Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Every page visited on a phone must fit its width (checked softly: the phone layout is its own work item). */
  private void fits(SoftAssertions softly, boolean phone, String page) {
    if (!phone) {
      return;
    }
    Number scroll = (Number) js("return document.documentElement.scrollWidth;");
    Number width = (Number) js("return window.innerWidth;");
    softly.assertThat(scroll.intValue()).as(page + " at 390 px: document.documentElement.scrollWidth <= "
        + "window.innerWidth").isLessThanOrEqualTo(width.intValue());
  }

  private void shot(String prefix, String step) {
    browser.screenshot(prefix + "-" + step);
  }

  @Test
  @Order(1)
  void anAdminFindsPreviewsAddsAndFollowsATitleThenReadsIt() throws Exception {
    flow(false, CIRCUS, "Lantern Scans", LANTERN, "add-desktop");
  }

  @Test
  @Order(2)
  void theSameFlowFitsAPhoneScreen() throws Exception {
    browser.size(390, 844);
    flow(true, EXPRESS, "Night Owls", OWLS, "add-phone");
  }

  private void flow(boolean phone, int title, String groupName, String groupId, String prefix) throws Exception {
    SoftAssertions softly = new SoftAssertions();
    driver.get(harness.url("/login.html?next=/"));
    waiting(10).until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
    fits(softly, phone, "login");
    driver.findElement(By.id("password")).sendKeys(PASSWORD);
    driver.findElement(By.id("login-button")).click();
    waiting(10).until(d -> !d.getCurrentUrl().contains("/login.html"));
    waiting(10).until(ExpectedConditions.presenceOfElementLocated(By.id("nav-add")));
    fits(softly, phone, "library");
    shot(prefix, "01-library");

    // Add titles, from the header (on a phone behind the menu button, when there is one).
    List<WebElement> toggle = driver.findElements(By.id("menu-toggle"));
    if (!toggle.isEmpty() && toggle.get(0).isDisplayed()) {
      toggle.get(0).click();
    }
    waiting(5).until(ExpectedConditions.elementToBeClickable(By.id("nav-add"))).click();
    waiting(10).until(ExpectedConditions.urlToBe(harness.url("/admin/add.html")));
    waiting(10).until(d -> d.findElements(By.cssSelector("#search-source option")).size() >= 3);
    assertThat(new Select(driver.findElement(By.id("search-source"))).getOptions().stream()
        .map(WebElement::getText)).contains("All sources that can search", SOURCE)
        .anyMatch(text -> text.startsWith(BROKEN));
    fits(softly, phone, "add titles");
    shot(prefix, "02-add-page");

    // One letter asks nothing; the name, after the pause, searches every source.
    driver.findElement(By.id("search-q")).sendKeys("s");
    waiting(5).until(ExpectedConditions.textToBe(By.id("search-status"), "Type at least 2 letters."));
    int searchesBefore = api.findAll(com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(
        urlPathEqualTo("/manga"))).size();
    driver.findElement(By.id("search-q")).sendKeys("tarfall");
    String card = "#search-results .result-card[data-source='" + SOURCE + "'][data-title-id='" + id(title) + "']";
    try {
      waiting(15).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(card)));
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError("no result card " + card + "; the page says: status '"
          + driver.findElement(By.id("search-status")).getText() + "', problems '"
          + driver.findElement(By.id("search-problems")).getText() + "', results '"
          + driver.findElement(By.id("search-results")).getAttribute("innerHTML") + "'", e);
    }
    assertThat(driver.findElements(By.cssSelector("#search-results .result-card"))).hasSize(2);
    // Typing "tarfall" in one go is one search, not one per key.
    assertThat(api.findAll(com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(urlPathEqualTo("/manga")))
        .size() - searchesBefore).isLessThanOrEqualTo(1);
    waiting(10).until(d -> Boolean.TRUE.equals(js("return [...document.querySelectorAll('#search-results "
        + ".result-card img')].every(i => i.complete && i.naturalWidth > 0) && document.querySelectorAll("
        + "'#search-results .result-card img').length === 2;")));
    String problem = driver.findElement(By.cssSelector("#search-problems .problem[data-source='" + BROKEN + "']"))
        .getText();
    assertThat(problem).startsWith(BROKEN + ": ");
    if (phone) {
      // The first search's failure opened the broken source's circuit: this one is refused without a request.
      assertThat(problem).contains("failing lately, resting — try later");
    }
    assertThat(driver.findElement(By.cssSelector(card)).getText()).contains("Starfall", "2021", "ongoing",
        "Languages: en, fr");
    // A result the library already has says so, its cover from the library (the desktop flow adds Starfall Circus).
    Set<String> held = new JsonObject(harnessGet("/api/series")).getJsonArray("series").stream()
        .map(JsonObject.class::cast).filter(s -> SOURCE.equals(s.getString("source")))
        .map(s -> s.getString("titleId")).collect(Collectors.toSet());
    assertThat(held).as("the titles added earlier in this class").containsAll(added);
    for (int shown : new int[] {CIRCUS, EXPRESS}) {
      WebElement result = driver.findElement(By.cssSelector("#search-results .result-card[data-source='" + SOURCE
          + "'][data-title-id='" + id(shown) + "']"));
      boolean has = held.contains(id(shown));
      assertThat(result.getAttribute("data-in-library")).as(id(shown) + " in the library")
          .isEqualTo(String.valueOf(has));
      assertThat(result.findElements(By.cssSelector(".result-held"))).as(id(shown) + " says it is in the library")
          .hasSize(has ? 1 : 0);
      if (has) {
        assertThat(result.findElement(By.cssSelector(".result-held")).getText()).startsWith("In your library");
        assertThat(result.findElement(By.cssSelector("img")).getAttribute("src")).contains("/api/series/");
      }
    }
    fits(softly, phone, "search results");
    shot(prefix, "03-results");

    // The preview: chapters by language, then group; nothing of it is in the library yet.
    WebElement open = driver.findElement(By.cssSelector(card + " .result-open"));
    js("arguments[0].scrollIntoView({block: 'center'});", open);
    open.click();
    waiting(15).until(ExpectedConditions.attributeToBe(By.id("preview"), "data-loaded", "true"));
    assertThat(driver.findElement(By.id("preview-description")).getText()).contains("acrobats under a falling star");
    assertThat(new Select(driver.findElement(By.id("add-language"))).getOptions().stream().map(WebElement::getText))
        .containsExactlyInAnyOrder("en", "fr");
    assertThat(driver.findElements(By.cssSelector("#preview-chapters details[data-language='en'] .group-block")))
        .extracting(e -> e.getAttribute("data-group")).containsExactlyInAnyOrder("Lantern Scans", "Night Owls");
    assertThat(driver.findElements(By.cssSelector("#preview-chapters details[data-language='fr'] .chapter-chip")))
        .hasSize(1);
    assertThat(driver.findElements(By.cssSelector("#preview-chapters .chapter-chip[data-in-library='true']")))
        .isEmpty();
    fits(softly, phone, "preview");
    if (phone) {
      // This page's own content fits whatever the header does.
      assertThat((Boolean) js("const m = document.querySelector('main'); return m.scrollWidth <= m.clientWidth;"))
          .as("the Add titles page's content fits 390 px").isTrue();
    }
    shot(prefix, "04-preview");

    // English, one group preferred, followed.
    new Select(driver.findElement(By.id("add-language"))).selectByValue("en");
    new Select(driver.findElement(By.id("add-group"))).selectByVisibleText(groupName);
    WebElement follow = driver.findElement(By.id("add-follow"));
    if (!follow.isSelected()) {
      follow.click();
    }
    WebElement submit = driver.findElement(By.id("add-submit"));
    js("arguments[0].scrollIntoView({block: 'center'});", submit);
    submit.click();
    waiting(10).until(ExpectedConditions.textMatches(By.id("add-result"), java.util.regex.Pattern.compile("^Added")));
    assertThat(driver.findElement(By.cssSelector("#add-result a")).getAttribute("href")).endsWith(
        "/admin/scraper.html");
    waiting(10).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(
        "#following .follow-row[data-title-id='" + id(title) + "']")));
    fits(softly, phone, "added");
    shot(prefix, "05-added");

    // The chapters download: chapter 1 from the preferred group, chapter 2 from the only group that has it, no French.
    JsonObject series = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
        new JsonObject(harnessGet("/api/series")).getJsonArray("series").stream().map(JsonObject.class::cast)
            .filter(s -> SOURCE.equals(s.getString("source")) && id(title).equals(s.getString("titleId")))
            .findFirst().orElse(null), s -> s != null && s.getInteger("chapters") == 2);
    String seriesId = series.getString("id");
    added.add(id(title));
    Set<String> chapterIds;
    try (Stream<Path> folders = Files.list(data.resolve("library").resolve(seriesId))) {
      chapterIds = folders.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().startsWith("."))
          .map(p -> new JsonObject(read(p.resolve("chapter.json"))))
          .map(m -> m.getString("chapterId") + "@" + m.getString("language")).collect(Collectors.toSet());
    }
    String first = groupId.equals(LANTERN) ? FakeMangaDex.chapterId(title, 1) : FakeMangaDex.chapterId(title, 2);
    assertThat(chapterIds).containsExactlyInAnyOrder(first + "@en", FakeMangaDex.chapterId(title, 3) + "@en");
    JsonObject followed = admin.get("/api/admin/following").json().getJsonArray("titles").stream()
        .map(JsonObject.class::cast).filter(t -> id(title).equals(t.getString("titleId"))).findFirst().orElseThrow();
    assertThat(followed.getString("language")).isEqualTo("en");

    // The library card shows two unread chapters.
    String seriesCard = "[data-series='" + seriesId + "']";
    driver.get(harness.url("/"));
    waiting(10).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(
        seriesCard + ", [data-series-id='" + seriesId + "']")));
    softly.assertThat(unread(seriesCard)).as("unread count on the library card before reading").isEqualTo("2");
    fits(softly, phone, "library with the title");
    shot(prefix, "06-library-unread");

    // Reading the first chapter to its last page marks it read.
    String firstChapter = new JsonObject(harnessGet("/api/series/" + seriesId)).getJsonArray("chapters")
        .getJsonObject(0).getString("id");
    driver.get(harness.url("/read.html?series=" + seriesId + "&chapter=" + firstChapter));
    waiting(10).until(ExpectedConditions.attributeToBe(By.id("reader"), "data-page", "1"));
    driver.findElement(By.tagName("body")).sendKeys(org.openqa.selenium.Keys.END);
    waiting(10).until(ExpectedConditions.attributeToBe(By.id("reader"), "data-page", "2"));
    waiting(10).until(ExpectedConditions.attributeToBe(By.id("reader"), "data-saved-page", "2"));
    fits(softly, phone, "reader");
    shot(prefix, "07-read");
    await().atMost(Duration.ofSeconds(10)).until(() -> new JsonObject(harnessGet("/api/series/" + seriesId))
        .getJsonArray("chapters").stream().map(JsonObject.class::cast)
        .filter(c -> "read".equals(c.getString("state"))).map(c -> c.getString("id")).toList()
        .equals(List.of(firstChapter)));

    driver.get(harness.url("/"));
    waiting(10).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(
        seriesCard + ", [data-series-id='" + seriesId + "']")));
    softly.assertThat(unread(seriesCard)).as("unread count on the library card after reading one").isEqualTo("1");
    fits(softly, phone, "library after reading");
    shot(prefix, "08-library-after");
    softly.assertAll();
  }

  /** The unread count a library card shows, or a sentence when it shows none. */
  private String unread(String seriesCard) {
    try {
      waiting(2).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(seriesCard + " .unread-count")));
    } catch (org.openqa.selenium.TimeoutException e) {
      return "(no " + seriesCard + " .unread-count)";
    }
    return driver.findElement(By.cssSelector(seriesCard + " .unread-count")).getText().trim();
  }

  /** What the logged-in admin's session (the browser's cookie) reads from the API. */
  private String harnessGet(String path) {
    String cookie = driver.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
        .collect(Collectors.joining("; "));
    return io.mangacircus.launcher.testing.ReaderSession.send(harness.port(), "GET", path, null, "Cookie", cookie)
        .body();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
