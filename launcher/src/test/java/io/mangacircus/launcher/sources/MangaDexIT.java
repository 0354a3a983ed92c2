package io.mangacircus.launcher.sources;

import io.mangacircus.testing.MangaDexApi;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static io.mangacircus.testing.MangaDexApi.AT_HOME_1;
import static io.mangacircus.testing.MangaDexApi.AT_HOME_2;
import static io.mangacircus.testing.MangaDexApi.CH1;
import static io.mangacircus.testing.MangaDexApi.CH2;
import static io.mangacircus.launcher.sources.MangaDexFixtures.TITLE;
import static io.mangacircus.testing.MangaDexApi.TITLE_ID;
import static io.mangacircus.launcher.sources.MangaDexFixtures.TITLE_URL;
import static io.mangacircus.testing.MangaDexApi.atHome;
import static io.mangacircus.testing.MangaDexApi.fixture;
import static io.mangacircus.testing.MangaDexApi.journal;
import static io.mangacircus.testing.MangaDexApi.json;
import static io.mangacircus.testing.MangaDexApi.pagePath;
import static io.mangacircus.testing.MangaDexApi.path;
import static io.mangacircus.testing.MangaDexApi.resource;
import static io.mangacircus.testing.MangaDexApi.spacing;
import static io.mangacircus.testing.MangaDexApi.stubPages;
import static io.mangacircus.testing.MangaDexApi.stubScheduled;
import static io.mangacircus.testing.MangaDexApi.stubTitle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.scraper.source.Sources;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MangaDex adapter end to end, against a fake MangaDex on loopback (never the real site): the operator adds a
 * title by its URL, inspects, confirms, and the real scraper downloads and publishes it into {@code data/library}
 * within MangaDex's limits, as WireMock's request journal shows.
 */
@Tag("realtime")
class MangaDexIT {

  private static final String TOKEN = "mangadex-it-token-012345";
  private static final String ADMIN_PASSWORD = "mangadex-it-admin-pass";
  private static final String SOURCE = "mangadex";

  @TempDir
  Path data;

  private final WireMockServer api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private LauncherHarness harness;
  private AdminApi admin;

  @BeforeEach
  void start() {
    api.start();
  }

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
    api.stop();
  }

  private String node(String name) {
    return api.baseUrl() + "/" + name;
  }

  private void startProduct() {
    JsonObject scraper = new JsonObject().put("claimPollMs", 50)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("failures", new JsonObject().put("retryBackoffMs", 50))
        .put("sources", new JsonObject().put(SOURCE, new JsonObject().put("type", "mangadex")
            .put("baseUrl", api.baseUrl()).put("pageDelayMs", 0).put("chapterDelayMs", 0)
            .put("options", new JsonObject().put("feedPageSize", 4))));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN)
        .put("initialAdminPassword", ADMIN_PASSWORD))
        .put("scraper", scraper).encode()).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
  }

  private JsonObject add(String title, boolean autoConfirm) {
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", SOURCE).put("title", title)
        .put("autoConfirm", autoConfirm));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    return added.json().getJsonObject("job");
  }

  private JsonObject lane() {
    return admin.get("/api/admin/lanes").json().getJsonArray("lanes").stream().map(JsonObject.class::cast)
        .filter(l -> l.getString("source").equals(SOURCE)).findFirst().orElseThrow();
  }

  private void assertPublished(Path chapter, Map<String, byte[]> served, String extension) throws Exception {
    List<byte[]> expected = new ArrayList<>(served.values());
    for (int i = 0; i < expected.size(); i++) {
      Path page = chapter.resolve(String.format("%03d.%s", i + 1, extension));
      assertThat(page).exists();
      assertThat(Files.readAllBytes(page)).as(page.toString()).isEqualTo(expected.get(i));
    }
    assertThat(chapter.resolve("chapter.json")).exists();
    assertThat(chapter.resolve("ComicInfo.xml")).exists();
  }

  private static void assertWithinMangaDexLimits(List<LoggedRequest> requests) {
    var spacing = spacing(requests);
    long first = requests.get(0).getLoggedDate().getTime();
    requests.forEach(r -> System.out.println("[MangaDexIT] +" + (r.getLoggedDate().getTime() - first) + " ms "
        + path(r)));
    System.out.println("[MangaDexIT] request spacing: " + spacing);
    assertThat(spacing.mostInOneSecond()).as("never 6 requests within one second: " + spacing).isLessThanOrEqualTo(5);
    assertThat(spacing.averageGapMs()).as("at least 200 ms apart on average: " + spacing).isGreaterThanOrEqualTo(200);
    List<Long> atHome = requests.stream().filter(r -> path(r).startsWith("/at-home/server/"))
        .map(r -> r.getLoggedDate().getTime()).sorted().toList();
    assertThat(MangaDexApi.mostWithin(atHome, 60_000)).as("at-home look-ups per minute").isLessThanOrEqualTo(40);
    assertThat(requests).allSatisfy(r -> assertThat(r.getHeader("User-Agent")).isEqualTo(Sources.USER_AGENT));
  }

  // ---- the whole way --------------------------------------------------------------------------------------------

  @Test
  void aTitleAddedByUrlIsInspectedConfirmedAndPublishedInEnglishWithinTheLimitsDespiteAnExpiredServer()
      throws Exception {
    stubTitle(api);
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).willReturn(atHome(AT_HOME_1, node("node-a"))));
    // Chapter 2's first server "expires" after its first page: it answers 404 from then on; a fresh one is node-b.
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH2)).inScenario("chapter 2").whenScenarioStateIs(STARTED)
        .willReturn(atHome(AT_HOME_2, node("node-a"))).willSetStateTo("node-a handed out"));
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH2)).inScenario("chapter 2")
        .whenScenarioStateIs("node-a handed out").willReturn(atHome(AT_HOME_2, node("node-b"))));
    Map<String, byte[]> chapter1 = stubPages(api, "node-a", AT_HOME_1, false);
    Map<String, byte[]> chapter2 = stubPages(api, "node-b", AT_HOME_2, false);
    String firstOfChapter2 = AT_HOME_2.data().get(0);
    api.stubFor(get(urlPathEqualTo(pagePath("node-a", AT_HOME_2, firstOfChapter2, false))).atPriority(1)
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "image/jpeg")
            .withBody(chapter2.get(firstOfChapter2))));
    api.stubFor(get(urlPathMatching("/node-a/.*")).atPriority(10).willReturn(aResponse().withStatus(404)
        .withBody("expired")));
    startProduct();

    JsonObject added = add(TITLE_URL, false);
    assertThat(added.getString("titleId")).as("the URL names the title id").isEqualTo(TITLE_ID);
    String id = added.getString("id");
    admin.awaitJobState(id, "ready");
    JsonObject inspected = admin.job(id);
    assertThat(inspected.getString("title")).isEqualTo(TITLE);
    assertThat(inspected.getJsonArray("chapterList").stream().map(JsonObject.class::cast)
        .map(c -> c.getString("id") + " " + c.getString("number")).toList())
        .as("English only, the external chapter listed as such, no empty chapter, one chapter 2")
        .containsExactly(CH1 + " 1", CH_EXTERNAL + " 1.5", CH2 + " 2");
    assertThat(journal(api)).as("inspection reads metadata only").extracting(MangaDexApi::path)
        .containsExactly("/manga/" + TITLE_ID, "/manga/" + TITLE_ID + "/feed", "/manga/" + TITLE_ID + "/feed",
            "/manga/" + TITLE_ID + "/feed");

    assertThat(admin.post("/api/admin/jobs/" + id + "/confirm", null).status()).isEqualTo(200);
    admin.awaitJobState(id, "done");

    Path series = data.resolve("library/the-circus-at-dawn");
    assertPublished(series.resolve("chapter-0001"), chapter1, "png");
    assertPublished(series.resolve("chapter-0002"), chapter2, "jpg");
    try (Stream<Path> chapters = Files.list(series)) {
      assertThat(chapters.map(p -> p.getFileName().toString()).sorted().toList())
          .containsExactly(".mangacircus-series.json", ".mangacircus-source-metadata.json", "chapter-0001",
              "chapter-0002");
    }
    JsonObject metadata = new JsonObject(ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD)
        .get("/api/series/the-circus-at-dawn").body()).getJsonObject("metadata");
    assertThat(metadata.getString("summary")).as("the title's description, through the reader")
        .isEqualTo("A fictional title made up for MangaCircus's tests.");
    assertThat(metadata.getJsonArray("genres").getList()).containsExactly("Adventure");
    assertThat(metadata.getString("status")).isEqualTo("ongoing");
    assertThat(new JsonObject(Files.readString(series.resolve("chapter-0002/chapter.json"))).encode())
        .contains(CH2, SOURCE);

    List<LoggedRequest> requests = journal(api);
    List<String> paths = requests.stream().map(MangaDexApi::path).toList();
    assertThat(paths).containsExactly(
        "/manga/" + TITLE_ID,
        "/manga/" + TITLE_ID + "/feed",
        "/manga/" + TITLE_ID + "/feed",
        "/manga/" + TITLE_ID + "/feed",
        "/at-home/server/" + CH1,
        pagePath("node-a", AT_HOME_1, AT_HOME_1.data().get(0), false),
        pagePath("node-a", AT_HOME_1, AT_HOME_1.data().get(1), false),
        pagePath("node-a", AT_HOME_1, AT_HOME_1.data().get(2), false),
        "/at-home/server/" + CH2,
        pagePath("node-a", AT_HOME_2, AT_HOME_2.data().get(0), false),
        pagePath("node-a", AT_HOME_2, AT_HOME_2.data().get(1), false),
        "/at-home/server/" + CH2,
        pagePath("node-b", AT_HOME_2, AT_HOME_2.data().get(1), false),
        pagePath("node-b", AT_HOME_2, AT_HOME_2.data().get(2), false));
    assertThat(requests.get(10).getLoggedDate()).as("the fresh at-home call follows the expired page")
        .isBeforeOrEqualTo(requests.get(11).getLoggedDate());
    List<LoggedRequest> feeds = requests.stream().filter(r -> path(r).endsWith("/feed")).toList();
    assertThat(feeds).extracting(r -> r.queryParameter("offset").firstValue()).containsExactly("0", "4", "0");
    assertThat(feeds).allSatisfy(r -> {
      assertThat(r.queryParameter("translatedLanguage[]").values()).containsExactly("en");
      assertThat(r.queryParameter("order[chapter]").firstValue()).isEqualTo("asc");
      assertThat(r.queryParameter("limit").firstValue()).isEqualTo("4");
    });
    System.out.println("[MangaDexIT] download phase only: " + spacing(requests.subList(4, requests.size())));
    assertWithinMangaDexLimits(requests);
    assertThat(admin.get("/api/admin/incidents").json().getLong("open")).isZero();
  }

  // ---- scheduled and external chapters -------------------------------------------------------------------------

  /** Chapter 1.5 of the fixture feed: hosted elsewhere ({@code externalUrl}, no pages). */
  private static final String CH_EXTERNAL = "2b5a7c2e-1111-4c1a-9a51-000000000003";
  /** English chapter 4: not in the fixture feed; the tests schedule it, or release it. */
  private static final String CH4 = "2b5a7c2e-1111-4c1a-9a51-000000000008";

  /** Chapter 4 as MangaDex's feed lists it, readable from {@code at}. */
  private static JsonObject chapter4(Instant at) {
    String when = at.atOffset(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx"));
    return new JsonObject().put("id", CH4).put("type", "chapter").put("attributes", new JsonObject()
        .put("volume", null).put("chapter", "4").put("title", "The Last Parade").put("translatedLanguage", "en")
        .put("externalUrl", null).put("publishAt", when).put("readableAt", when)
        .put("createdAt", "2024-01-01T09:58:12+00:00").put("updatedAt", "2024-01-01T09:58:12+00:00")
        .put("pages", 3).put("version", 1))
        .put("relationships", new JsonArray().add(new JsonObject().put("id", TITLE_ID).put("type", "manga")));
  }

  /** Every chapter's at-home server and pages, chapter 4's included (it serves chapter 1's files). */
  private void stubAllChapters() {
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).willReturn(atHome(AT_HOME_1, node("node-a"))));
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH2)).willReturn(atHome(AT_HOME_2, node("node-b"))));
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH4)).willReturn(atHome(AT_HOME_1, node("node-a"))));
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH_EXTERNAL)).willReturn(atHome(AT_HOME_1, node("node-a"))));
    stubPages(api, "node-a", AT_HOME_1, false);
    stubPages(api, "node-b", AT_HOME_2, false);
  }

  private static JsonObject chapterOf(JsonObject job, String chapterId) {
    return job.getJsonArray("chapterList").stream().map(JsonObject.class::cast)
        .filter(c -> c.getString("id").equals(chapterId)).findFirst()
        .orElseThrow(() -> new AssertionError("chapter " + chapterId + " is not listed: " + job.encode()));
  }

  private long requestsTo(String path) {
    return journal(api).stream().filter(r -> path(r).equals(path)).count();
  }

  @Test
  void aScheduledChapterIsListedAsScheduledNeverRequestedAndTheJobFinishesWithoutIt() {
    stubTitle(api);
    Instant release = Instant.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);
    stubScheduled(api, TITLE_ID, new JsonArray().add(chapter4(release)));
    stubAllChapters();
    startProduct();

    String id = add(TITLE_URL, false).getString("id");
    admin.awaitJobState(id, "ready");
    JsonObject scheduled = chapterOf(admin.job(id), CH4);
    assertThat(scheduled.getString("stage")).isEqualTo("scheduled");
    assertThat(scheduled.getString("reason")).isEqualTo("scheduled: readable from " + release);
    assertThat(admin.post("/api/admin/jobs/" + id + "/confirm", null).status()).isEqualTo(200);
    admin.awaitJobState(id, "done");

    assertThat(chapterOf(admin.job(id), CH4).getString("stage")).as("still scheduled").isEqualTo("scheduled");
    assertThat(admin.job(id).getLong("chaptersPublished")).isEqualTo(2);
    assertThat(requestsTo("/at-home/server/" + CH4)).as("a scheduled chapter is never asked for").isZero();
    assertThat(data.resolve("library/the-circus-at-dawn/chapter-0004")).doesNotExist();
    List<LoggedRequest> feeds = journal(api).stream().filter(r -> path(r).endsWith("/feed")).toList();
    assertThat(feeds).extracting(r -> r.queryParameter("includeFuturePublishAt").firstValue())
        .as("the feed's own filter: readable now, then scheduled").containsExactly("0", "0", "1");
    assertThat(admin.get("/api/admin/incidents").json().getLong("open")).isZero();
  }

  @Test
  void anExternalChapterIsListedAsExternalAndNeverRequested() {
    stubTitle(api);
    stubAllChapters();
    startProduct();

    String id = add(TITLE_URL, false).getString("id");
    admin.awaitJobState(id, "ready");
    JsonObject external = chapterOf(admin.job(id), CH_EXTERNAL);
    assertThat(external.getString("number")).isEqualTo("1.5");
    assertThat(external.getString("stage")).isEqualTo("external");
    assertThat(external.getString("reason")).isEqualTo("external, not downloadable: example.org");
    assertThat(admin.post("/api/admin/jobs/" + id + "/confirm", null).status()).isEqualTo(200);
    admin.awaitJobState(id, "done");

    assertThat(chapterOf(admin.job(id), CH_EXTERNAL).getString("stage")).isEqualTo("external");
    assertThat(requestsTo("/at-home/server/" + CH_EXTERNAL)).as("an external chapter is never asked for").isZero();
    try (Stream<Path> chapters = Files.list(data.resolve("library/the-circus-at-dawn"))) {
      assertThat(chapters.map(p -> p.getFileName().toString()).sorted().toList())
          .containsExactly(".mangacircus-series.json", ".mangacircus-source-metadata.json", "chapter-0001",
              "chapter-0002");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aScheduledChapterReleasedLaterIsDownloadedByTheNextInspection() {
    stubTitle(api);
    stubScheduled(api, TITLE_ID, new JsonArray().add(chapter4(Instant.now().plus(Duration.ofHours(6)))));
    stubAllChapters();
    startProduct();
    String first = add(TITLE_ID, true).getString("id");
    admin.awaitJobState(first, "done");
    assertThat(chapterOf(admin.job(first), CH4).getString("stage")).isEqualTo("scheduled");

    // MangaDex releases it: gone from the scheduled chapters, at the end of the feed of chapters readable now.
    stubScheduled(api, TITLE_ID, new JsonArray());
    JsonObject page = new JsonObject(resource("feed-offset-4.json"));
    page.getJsonArray("data").add(chapter4(Instant.now().minusSeconds(60)));
    page.put("total", page.getInteger("total") + 1);
    api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID + "/feed")).atPriority(1)
        .withQueryParam("includeFuturePublishAt", com.github.tomakehurst.wiremock.client.WireMock.equalTo("0"))
        .withQueryParam("offset", com.github.tomakehurst.wiremock.client.WireMock.equalTo("4"))
        .willReturn(json(200, page.encode())));
    String next = add(TITLE_ID, true).getString("id");
    assertThat(next).as("the finished job is superseded").isNotEqualTo(first);
    admin.awaitJobState(next, "done");

    assertThat(chapterOf(admin.job(next), CH4).getString("stage")).isEqualTo("published");
    assertThat(data.resolve("library/the-circus-at-dawn/chapter-0004/chapter.json")).exists();
    assertThat(requestsTo("/at-home/server/" + CH4)).isEqualTo(1);
    assertThat(requestsTo("/at-home/server/" + CH1)).as("published chapters are not fetched again").isEqualTo(1);
  }

  // ---- 429 ----------------------------------------------------------------------------------------------------

  @Test
  void a429HoldsTheLaneUntilTheTimeMangaDexNamedAndTheDownloadGoesOnByItself() {
    stubTitle(api);
    long resetEpoch = System.currentTimeMillis() / 1000 + 2;
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).inScenario("rate").whenScenarioStateIs(STARTED)
        .willReturn(json(429, resource("error-429.json")).withHeader("Retry-After", "2")
            .withHeader("X-RateLimit-Limit", "40").withHeader("X-RateLimit-Remaining", "0")
            .withHeader("X-RateLimit-Retry-After", String.valueOf(resetEpoch)))
        .willSetStateTo("limited once"));
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).inScenario("rate").whenScenarioStateIs("limited once")
        .willReturn(atHome(AT_HOME_1, node("node-a"))));
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH2)).willReturn(atHome(AT_HOME_2, node("node-b"))));
    stubPages(api, "node-a", AT_HOME_1, false);
    stubPages(api, "node-b", AT_HOME_2, false);
    startProduct();

    String id = add(TITLE_ID, true).getString("id");
    admin.awaitJobState(id, "done");

    assertThat(lane().getBoolean("paused")).as("a 429 holds the lane, it does not pause it").isFalse();
    assertThat(admin.get("/api/admin/incidents").json().getJsonArray("incidents")).isEmpty();
    assertThat(admin.job(id).getInteger("attempts")).as("a 429 consumes no attempt").isZero();
    List<LoggedRequest> requests = journal(api);
    int limited = 0;
    while (!path(requests.get(limited)).equals("/at-home/server/" + CH1)) {
      limited++;
    }
    long at429 = requests.get(limited).getLoggedDate().getTime();
    long next = requests.get(limited + 1).getLoggedDate().getTime();
    System.out.println("[MangaDexIT] after the 429 the next request came " + (next - at429) + " ms later");
    assertThat(next - at429).as("Retry-After: 2").isGreaterThanOrEqualTo(2_000);
    assertThat(next).as("X-RateLimit-Retry-After").isGreaterThanOrEqualTo(resetEpoch * 1000);
    assertThat(path(requests.get(limited + 1))).isEqualTo("/at-home/server/" + CH1);
    assertThat(requests).hasSize(4 + 1 + 1 + 3 + 1 + 3);
    assertWithinMangaDexLimits(requests);
  }

  // ---- unavailable --------------------------------------------------------------------------------------------

  @Test
  void aTitleWithoutEnglishSaysWhichLanguagesItHasAfterOneRequest() {
    String spanish = "6e2d1b0a-8c3f-4f4b-9d7e-0a1b2c3d4e5f";
    api.stubFor(get(urlPathEqualTo("/manga/" + spanish)).willReturn(json(200, resource("manga.json")
        .replace(TITLE_ID, spanish).replace("\"availableTranslatedLanguages\": [\"en\", \"fr\", \"es\"]",
            "\"availableTranslatedLanguages\": [\"es\", \"fr\", \"pt-br\"]"))));
    api.stubFor(get(urlPathEqualTo("/manga/" + spanish + "/feed")).willReturn(fixture("feed-empty.json")));
    startProduct();

    String id = add(spanish, true).getString("id");
    admin.awaitJobState(id, "unavailable");

    assertThat(admin.job(id).getString("reason")).contains("no chapters in English (available: es, fr, pt-br)");
    assertThat(journal(api)).as("one cheap request").extracting(MangaDexApi::path)
        .containsExactly("/manga/" + spanish);
  }

  @Test
  void aTitleWithoutEnglishChaptersAGoneTitleAndAForeignReferenceAreUnavailable() {
    String frenchOnly = "5d1c0a9e-7b2f-4e3a-8c6d-9e0f1a2b3c4d";
    String gone = "0e9d8c7b-6a5f-4e3d-2c1b-0a9f8e7d6c5b";
    api.stubFor(get(urlPathEqualTo("/manga/" + frenchOnly)).willReturn(json(200, resource("manga.json")
        .replace(TITLE_ID, frenchOnly))));
    api.stubFor(get(urlPathEqualTo("/manga/" + frenchOnly + "/feed")).willReturn(fixture("feed-empty.json")));
    api.stubFor(get(urlPathEqualTo("/manga/" + gone)).willReturn(json(404, resource("error-404.json"))));
    startProduct();

    String noEnglish = add("https://mangadex.org/title/" + frenchOnly, true).getString("id");
    String missing = add(gone, true).getString("id");
    String foreign = add("https://example.org/title/" + TITLE_ID + "/the-circus-at-dawn", true).getString("id");
    admin.awaitJobState(noEnglish, "unavailable");
    admin.awaitJobState(missing, "unavailable");
    admin.awaitJobState(foreign, "unavailable");

    assertThat(admin.job(noEnglish).getString("reason")).contains("no English chapters");
    assertThat(admin.job(missing).getString("reason")).contains("not found", "Manga could not be found");
    assertThat(admin.job(foreign).getString("reason")).contains("is not a MangaDex title URL");
    assertThat(journal(api)).as("nothing is asked about a reference that is not MangaDex's")
        .extracting(MangaDexApi::path)
        .containsExactly("/manga/" + frenchOnly, "/manga/" + frenchOnly + "/feed", "/manga/" + frenchOnly + "/feed",
            "/manga/" + gone);
    assertThat(lane().getBoolean("paused")).isFalse();
    assertThat(lane().getString("circuit")).isEqualTo("closed");
  }
}
