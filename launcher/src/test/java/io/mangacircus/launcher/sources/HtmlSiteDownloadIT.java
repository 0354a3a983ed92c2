package io.mangacircus.launcher.sources;

import io.mangacircus.testing.TestImages;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.scraper.source.Sources;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MangaPill-shaped site served by WireMock on loopback, read through the shipped MangaPill definition (plus a
 * pagination rule and faster pacing, written to a definition file of its own): add a title by URL, inspect, confirm,
 * download and publish; the files in the library and the requests in WireMock's journal (count and spacing) are
 * checked. A redesigned title page and a redesigned chapter page give parser failures that name the selector.
 */
class HtmlSiteDownloadIT {

  private static final Logger LOG = LoggerFactory.getLogger(HtmlSiteDownloadIT.class);
  private static final String TOKEN = "html-site-token-01234567";
  private static final String SOURCE = "mangapill";
  private static final long PAGE_DELAY_MS = 400;
  private static final long CHAPTER_DELAY_MS = 700;
  private static final String TITLE_PATH = "/manga/1234/circus-of-ink";

  /** The images of the three chapters, by URL path, in page order. */
  private static final Map<String, List<String>> IMAGES = Map.of(
      "10001000", List.of("1.jpeg", "2.png", "3.jpeg"),
      "10002000", List.of("1.jpeg", "2.jpeg"),
      "10003000", List.of("1.png", "2.jpeg"));

  @TempDir
  Path data;

  @TempDir
  Path conf;

  private final WireMockServer site = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final Map<String, byte[]> served = new LinkedHashMap<>();
  private LauncherHarness harness;
  private AdminApi admin;

  @BeforeEach
  void start() throws Exception {
    site.start();
    Path definition = conf.resolve("mangapill-paged.json");
    Files.writeString(definition, pagedDefinition().encodePrettily());
    JsonObject scraper = new JsonObject().put("claimPollMs", 50).put("autoConfirm", false)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("sources", new JsonObject().put(SOURCE, new JsonObject().put("type", "html")
            .put("baseUrl", site.baseUrl()).put("options", new JsonObject().put("definition", definition.toString()))));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN))
        .put("scraper", scraper).encode()).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
  }

  @AfterEach
  void stop() {
    try {
      if (harness != null) {
        harness.close();
      }
    } finally {
      site.stop();
    }
  }

  /** The shipped definition as the jar holds it, plus a next-page rule and pacing short enough for a test. */
  private static JsonObject pagedDefinition() throws IOException {
    try (InputStream in = HtmlSiteDownloadIT.class.getResourceAsStream("/sources/mangapill.json")) {
      JsonObject definition = new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      definition.getJsonObject("chapters").put("pagination", new JsonObject().put("next", "a[rel=next]")
          .put("maxPages", 5));
      definition.put("pacing", new JsonObject().put("pageDelayMs", PAGE_DELAY_MS)
          .put("chapterDelayMs", CHAPTER_DELAY_MS));
      return definition;
    }
  }

  // ---- the site -----------------------------------------------------------------------------------------------

  private static String fixture(String name) {
    try (InputStream in = HtmlSiteDownloadIT.class.getResourceAsStream("/fixtures/mangapill/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("fixture " + name + " is missing", e);
    }
  }

  private void page(String url, String fixture) {
    site.stubFor(get(urlEqualTo(url)).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "text/html; charset=utf-8").withBody(fixture(fixture))));
  }

  private void image(String url, byte[] bytes) {
    String type = url.endsWith(".png") ? "image/png" : "image/jpeg";
    site.stubFor(get(urlEqualTo(url)).willReturn(aResponse().withStatus(200).withHeader("Content-Type", type)
        .withBody(bytes)));
    served.put(url, bytes);
  }

  private void circusOfInk() {
    page(TITLE_PATH, "title-page-1.html");
    page(TITLE_PATH + "?page=2", "title-page-2.html");
    int seed = 0;
    for (int chapter = 1; chapter <= 3; chapter++) {
      String id = "1000" + chapter + "000";
      page("/chapters/1234-" + id + "/circus-of-ink-chapter-" + chapter, "chapter-" + chapter + ".html");
      for (String file : IMAGES.get(id)) {
        image("/file/mangap/1234/" + id + "/" + file, TestImages.image(file.endsWith(".png") ? "png" : "jpg", ++seed));
      }
    }
  }


  // ---- the admin API ------------------------------------------------------------------------------------------

  private String add(String titleRef) {
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", SOURCE).put("title", titleRef));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    return added.json().getJsonObject("job").getString("id");
  }

  private JsonObject lane() {
    return admin.get("/api/admin/lanes").json().getJsonArray("lanes").stream().map(JsonObject.class::cast)
        .filter(l -> l.getString("source").equals(SOURCE)).findFirst().orElseThrow();
  }

  private List<JsonObject> incidents(String kind) {
    return admin.get("/api/admin/incidents").json().getJsonArray("incidents").stream().map(JsonObject.class::cast)
        .filter(i -> i.getString("kind").equals(kind)).toList();
  }

  private List<ServeEvent> journal() {
    return site.getAllServeEvents().stream()
        .sorted(Comparator.comparing(e -> e.getRequest().getLoggedDate())).toList();
  }

  // ---- the tests ----------------------------------------------------------------------------------------------

  @Test
  void aTitleAddedByUrlIsInspectedConfirmedDownloadedAndPublishedAtTheDefinitionsPace() throws Exception {
    circusOfInk();
    assertThat(lane().getLong("pageDelayMs")).as("the definition's pacing, the source setting none")
        .isEqualTo(PAGE_DELAY_MS);
    assertThat(lane().getLong("chapterDelayMs")).isEqualTo(CHAPTER_DELAY_MS);

    String id = add(site.baseUrl() + TITLE_PATH);
    JsonObject ready = admin.awaitJobState(id, "ready");

    assertThat(ready.getString("titleId")).isEqualTo("1234/circus-of-ink");
    assertThat(ready.getString("title")).isEqualTo("Circus of Ink");
    assertThat(ready.getJsonArray("chapterList").stream().map(JsonObject.class::cast).map(c -> c.getString("number")))
        .as("both list pages, in reading order").containsExactly("1", "2", "3");
    assertThat(journal()).extracting(e -> e.getRequest().getUrl()).as("inspection reads only the title pages")
        .containsExactly(TITLE_PATH, TITLE_PATH + "?page=2");
    assertThat(Files.exists(data.resolve("library/mangapill-circus-of-ink"))).isFalse();

    assertThat(admin.post("/api/admin/jobs/" + id + "/confirm", null).status()).isEqualTo(200);
    JsonObject done = admin.awaitJobState(id, "done");

    assertThat(done.getLong("chaptersPublished")).isEqualTo(3);
    Path series = data.resolve("library/mangapill-circus-of-ink");
    int pagesChecked = 0;
    for (int chapter = 1; chapter <= 3; chapter++) {
      String chapterId = "1000" + chapter + "000";
      Path folder = series.resolve("chapter-000" + chapter);
      List<String> files = IMAGES.get(chapterId);
      for (int page = 1; page <= files.size(); page++) {
        String file = files.get(page - 1);
        String extension = file.endsWith(".png") ? "png" : "jpg";
        assertThat(folder.resolve(String.format("%03d.%s", page, extension)))
            .hasBinaryContent(served.get("/file/mangap/1234/" + chapterId + "/" + file));
        pagesChecked++;
      }
      JsonObject chapterJson = new JsonObject(Files.readString(folder.resolve("chapter.json")));
      assertThat(chapterJson.getString("source")).isEqualTo(SOURCE);
      assertThat(chapterJson.getString("series")).isEqualTo("Circus of Ink");
      assertThat(chapterJson.getString("titleId")).isEqualTo("1234/circus-of-ink");
      assertThat(chapterJson.getString("chapterId")).isEqualTo("1234-" + chapterId + "/circus-of-ink-chapter-"
          + chapter);
      assertThat(chapterJson.getJsonArray("pages")).hasSize(files.size());
      assertThat(folder.resolve("ComicInfo.xml")).content().contains("<Series>Circus of Ink</Series>");
    }
    assertThat(pagesChecked).isEqualTo(served.size()).isEqualTo(7);
    try (var entries = Files.list(data.resolve("library"))) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .as("nothing left in staging, nothing published elsewhere").containsExactly("mangapill-circus-of-ink");
    }

    List<ServeEvent> journal = journal();
    assertThat(journal).as("2 list pages + 3 chapter pages + 7 images, each once").hasSize(12);
    assertThat(journal).extracting(e -> e.getRequest().getUrl()).doesNotHaveDuplicates()
        .noneMatch(url -> url.contains("loading.gif") || url.contains("cover") || url.contains("not-a-chapter"));
    long smallest = Long.MAX_VALUE;
    List<Long> gaps = new java.util.ArrayList<>();
    for (int i = 1; i < journal.size(); i++) {
      long gap = journal.get(i).getRequest().getLoggedDate().getTime()
          - journal.get(i - 1).getRequest().getLoggedDate().getTime();
      smallest = Math.min(smallest, gap);
      gaps.add(gap);
      String url = journal.get(i).getRequest().getUrl();
      assertThat(gap).as("gap before %s", url).isGreaterThanOrEqualTo(PAGE_DELAY_MS);
      if (url.startsWith("/chapters/") && journal.get(i - 1).getRequest().getUrl().startsWith("/file/")) {
        assertThat(gap).as("chapter delay before %s", url).isGreaterThanOrEqualTo(CHAPTER_DELAY_MS);
      }
    }
    LOG.info("[JOURNAL] {} requests, smallest gap between two {} ms (page delay {} ms); gaps {}", journal.size(),
        smallest, PAGE_DELAY_MS, gaps);
    for (ServeEvent event : journal) {
      assertThat(event.getRequest().getHeader("User-Agent")).isEqualTo(Sources.USER_AGENT);
      if (event.getRequest().getUrl().startsWith("/file/")) {
        assertThat(event.getRequest().getHeader("Referer")).isEqualTo(site.baseUrl() + "/");
      }
    }
    assertThat(incidents("parser")).isEmpty();
  }

  @Test
  void aChangedLayoutIsAParserFailureNamingTheSelectorAndTwoOfThemPauseTheLane() throws Exception {
    page("/manga/5678/ink-rewritten", "changed-title.html");
    page("/manga/4321/ink-reader", "ink-reader-title.html");
    page("/chapters/4321-10001000/ink-reader-chapter-1", "changed-chapter.html");
    image("/file/mangap/4321/10001000/1.jpeg", TestImages.image("jpg", 1));

    String changedTitle = add("5678/ink-rewritten");
    JsonObject quarantined = admin.awaitJobState(changedTitle, "quarantined");

    assertThat(quarantined.getString("reason")).isEqualTo("parser: inspection: selector '#chapters a[href]' "
        + "(chapters.item) matched nothing on /manga/5678/ink-rewritten");
    assertThat(incidents("parser")).singleElement().satisfies(incident -> {
      assertThat(incident.getString("jobId")).isEqualTo(changedTitle);
      assertThat(incident.getString("message")).contains("selector '#chapters a[href]'");
      assertThat(incident.getString("action")).isEqualTo("job quarantined");
    });
    assertThat(lane().getBoolean("paused")).as("one parser failure is not systemic").isFalse();

    String changedChapter = add(site.baseUrl() + "/manga/4321/ink-reader");
    admin.awaitJobState(changedChapter, "ready");
    assertThat(admin.post("/api/admin/jobs/" + changedChapter + "/confirm", null).status()).isEqualTo(200);
    JsonObject second = admin.awaitJobState(changedChapter, "quarantined");

    assertThat(second.getString("reason")).isEqualTo("parser: chapter 1: selector 'img.js-page' (pages.image) matched "
        + "nothing on /chapters/4321-10001000/ink-reader-chapter-1");
    await().atMost(Duration.ofSeconds(10)).until(() -> lane().getBoolean("paused"));
    assertThat(lane().getString("pauseReason")).contains("systemic parser failure");
    assertThat(journal()).extracting(e -> e.getRequest().getUrl()).as("no image of a page it could not read")
        .containsExactly("/manga/5678/ink-rewritten", "/manga/4321/ink-reader",
            "/chapters/4321-10001000/ink-reader-chapter-1");
    assertThat(Files.readAllLines(data.resolve("scraper/events.log"))).anySatisfy(line -> {
      JsonObject event = new JsonObject(line);
      assertThat(event.getString("type")).isEqualTo("incident");
      assertThat(event.getJsonObject("failure").getString("kind")).isEqualTo("parser");
      assertThat(event.getJsonObject("failure").getString("message")).contains("'img.js-page'");
    });
  }
}
