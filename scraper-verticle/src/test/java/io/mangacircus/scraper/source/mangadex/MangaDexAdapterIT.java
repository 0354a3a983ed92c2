package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.testing.MangaDexApi;
import io.mangacircus.testing.MutableClock;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static io.mangacircus.testing.MangaDexApi.AT_HOME_1;
import static io.mangacircus.testing.MangaDexApi.CH1;
import static io.mangacircus.testing.MangaDexApi.TITLE_ID;
import static io.mangacircus.scraper.source.mangadex.MangaDexStubs.atHome;
import static io.mangacircus.testing.MangaDexApi.atHome;
import static io.mangacircus.testing.MangaDexApi.fixture;
import static io.mangacircus.testing.MangaDexApi.journal;
import static io.mangacircus.testing.MangaDexApi.json;
import static io.mangacircus.testing.MangaDexApi.pagePath;
import static io.mangacircus.testing.MangaDexApi.path;
import static io.mangacircus.testing.MangaDexApi.resource;
import static io.mangacircus.testing.MangaDexApi.spacing;
import static io.mangacircus.testing.MangaDexApi.stubPages;
import static io.mangacircus.testing.MangaDexApi.stubTitle;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.RequestLimiter;
import io.mangacircus.scraper.source.RequestLine;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MangaDex adapter on its own against a WireMock MangaDex on loopback, with a clock the test moves: at-home
 * server expiry and replacement, rate-limit holds, data saver, references it refuses without sending anything, and
 * one limiter shared by every adapter instance of an API.
 */
class MangaDexAdapterIT {


  private static final ChapterInfo CHAPTER_1 = new ChapterInfo(CH1, "1", "Before the Big Top", "en");

  private final WireMockServer api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final MutableClock clock = new MutableClock();
  private Vertx vertx;
  private WebClient client;

  @BeforeEach
  void start() {
    api.start();
    vertx = Vertx.vertx();
    client = Sources.client(vertx);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    api.stop();
  }

  private MangaDexSource adapter(MangaDexOptions options) {
    return adapter(options, clock);
  }

  /**
   * An adapter on the wall clock, for cases that never move the clock: on the test's frozen clock every request's
   * timer is measured from the same instant, so a case's requests wait the sum of their slots instead of their spacing.
   */
  private MangaDexSource wallClockAdapter() {
    return adapter(new MangaDexOptions(false, 4), InstantSource.system());
  }

  private MangaDexSource adapter(MangaDexOptions options, InstantSource time) {
    return new MangaDexSource("md", api.baseUrl(), options, client, new RequestLine(new RequestLimiter(time)), time,
        5_000, 5_000, SourceConfig.DEFAULT_CHALLENGE_MARKERS);
  }

  private MangaDexSource adapter() {
    return adapter(new MangaDexOptions(false, 4));
  }

  private String node(String name) {
    return api.baseUrl() + "/" + name;
  }

  /** Calls the adapter on a Vert.x context, as a lane does, and waits for the outcome. */
  private <T> T await(Supplier<Future<T>> call) {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> call.get().onComplete(done::handle));
    return MangaDexStubs.await(done.future());
  }

  private int requestsTo(String path) {
    return api.findAll(getRequestedFor(urlPathEqualTo(path))).size();
  }

  /** Chapter 1's at-home server: node-a the first time, node-b after that. */
  private void nodeAThenNodeB() {
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).inScenario("servers").whenScenarioStateIs(STARTED)
        .willReturn(atHome(AT_HOME_1, node("node-a"))).willSetStateTo("node-a handed out"));
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).inScenario("servers")
        .whenScenarioStateIs("node-a handed out").willReturn(atHome(AT_HOME_1, node("node-b"))));
  }

  // ---- at-home servers ----------------------------------------------------------------------------------------

  @Test
  void anAtHomeServerOlderThan14MinutesIsReplacedBeforeThePageIsFetched() throws Exception {
    nodeAThenNodeB();
    stubPages(api, "node-a", AT_HOME_1, false);
    var served = stubPages(api, "node-b", AT_HOME_1, false);
    MangaDexSource source = adapter();

    List<PageRef> pages = await(() -> source.pages(TITLE_ID, CHAPTER_1)).value();
    assertThat(await(() -> source.page(pages.get(0))).ok()).isTrue();
    clock.advance(Duration.ofMinutes(14).plusSeconds(1));
    FetchOutcome<PageBytes> second = await(() -> source.page(pages.get(1)));

    assertThat(second.value().bytes()).isEqualTo(served.get(AT_HOME_1.data().get(1)));
    assertThat(journal(api)).extracting(MangaDexApi::path).containsExactly(
        "/at-home/server/" + CH1,
        pagePath("node-a", AT_HOME_1, AT_HOME_1.data().get(0), false),
        "/at-home/server/" + CH1,
        pagePath("node-b", AT_HOME_1, AT_HOME_1.data().get(1), false));
  }

  @Test
  void aServerYoungerThan14MinutesIsKept() throws Exception {
    nodeAThenNodeB();
    stubPages(api, "node-a", AT_HOME_1, false);
    MangaDexSource source = adapter();

    List<PageRef> pages = await(() -> source.pages(TITLE_ID, CHAPTER_1)).value();
    clock.advance(Duration.ofMinutes(13));
    for (PageRef page : pages) {
      assertThat(await(() -> source.page(page)).ok()).isTrue();
    }

    assertThat(requestsTo("/at-home/server/" + CH1)).isEqualTo(1);
  }

  @Test
  void aPageRefusedWith403GetsOneFreshServerAndOneMoreTry() throws Exception {
    nodeAThenNodeB();
    api.stubFor(get(urlPathMatching("/node-a/.*")).willReturn(aResponse().withStatus(403).withBody("token expired")));
    var served = stubPages(api, "node-b", AT_HOME_1, false);
    MangaDexSource source = wallClockAdapter();

    List<PageRef> pages = await(() -> source.pages(TITLE_ID, CHAPTER_1)).value();
    List<byte[]> fetched = new ArrayList<>();
    for (PageRef page : pages) {
      fetched.add(await(() -> source.page(page)).value().bytes());
    }

    assertThat(fetched).containsExactlyElementsOf(served.values());
    assertThat(pages).extracting(PageRef::key).as("the manifest keeps the file names").containsExactlyElementsOf(
        AT_HOME_1.data());
    assertThat(journal(api)).extracting(MangaDexApi::path).containsExactly(
        "/at-home/server/" + CH1,
        pagePath("node-a", AT_HOME_1, AT_HOME_1.data().get(0), false),
        "/at-home/server/" + CH1,
        pagePath("node-b", AT_HOME_1, AT_HOME_1.data().get(0), false),
        pagePath("node-b", AT_HOME_1, AT_HOME_1.data().get(1), false),
        pagePath("node-b", AT_HOME_1, AT_HOME_1.data().get(2), false));
  }

  @Test
  void aPageThatFailsOnTheFreshServerTooFailsWithoutAThirdLookUp() throws Exception {
    nodeAThenNodeB();
    api.stubFor(get(urlPathMatching("/node-./.*")).willReturn(aResponse().withStatus(404)));
    MangaDexSource source = wallClockAdapter();

    List<PageRef> pages = await(() -> source.pages(TITLE_ID, CHAPTER_1)).value();
    FetchOutcome<PageBytes> outcome = await(() -> source.page(pages.get(0)));

    assertThat(outcome).isInstanceOf(FetchOutcome.NotFound.class);
    assertThat(requestsTo("/at-home/server/" + CH1)).isEqualTo(2);
  }

  @Test
  void aChallengePageOnAnImageServerIsAccessDeniedAndNotWorkedAround() throws Exception {
    nodeAThenNodeB();
    api.stubFor(get(urlPathMatching("/node-a/.*")).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "text/html").withBody("<html><title>Just a moment...</title></html>")));
    MangaDexSource source = adapter();

    List<PageRef> pages = await(() -> source.pages(TITLE_ID, CHAPTER_1)).value();
    FetchOutcome<PageBytes> outcome = await(() -> source.page(pages.get(0)));

    assertThat(outcome).isInstanceOfSatisfying(FetchOutcome.AccessDenied.class,
        denied -> assertThat(denied.status()).isEqualTo(200));
    assertThat(requestsTo("/at-home/server/" + CH1)).as("no fresh server to get round it").isEqualTo(1);
  }

  @Test
  void dataSaverFetchesTheSmallerImages() throws Exception {
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).willReturn(atHome(AT_HOME_1, node("node-a"))));
    var served = stubPages(api, "node-a", AT_HOME_1, true);
    MangaDexSource source = adapter(new MangaDexOptions(true, 500));

    List<PageRef> pages = await(() -> source.pages(TITLE_ID, CHAPTER_1)).value();

    assertThat(pages).extracting(PageRef::key).containsExactlyElementsOf(AT_HOME_1.dataSaver());
    assertThat(pages.get(0).url()).isEqualTo(api.baseUrl() + pagePath("node-a", AT_HOME_1,
        AT_HOME_1.dataSaver().get(0), true));
    assertThat(await(() -> source.page(pages.get(2))).value().bytes())
        .isEqualTo(served.get(AT_HOME_1.dataSaver().get(2)));
  }

  @Test
  void aChapterMangaDexNoLongerServesIsNotFound() throws Exception {
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).willReturn(json(404, resource("error-404.json"))));

    assertThat(await(() -> adapter().pages(TITLE_ID, CHAPTER_1))).isInstanceOf(FetchOutcome.NotFound.class);
  }

  // ---- titles -------------------------------------------------------------------------------------------------

  @Test
  void aTitleReadsItsWholeFeedAndListsEveryLanguageForThePipelineToChooseFrom() throws Exception {
    stubTitle(api);

    TitleInfo title = await(() -> adapter().title(TITLE_ID)).value();

    assertThat(title.title()).isEqualTo("The Circus at Dawn");
    assertThat(title.chapters()).extracting(c -> c.number() + " " + c.language())
        .containsExactly("1 en", "1 fr", "1.5 en", "2 es", "2 en");
    assertThat(title.chapters().get(2).externalUrl()).as("hosted elsewhere, listed as such")
        .isEqualTo("https://example.org/circus-at-dawn/1.5");
  }

  @Test
  void aTitleCarriesItsContentRatingAsItsAgeRating() throws Exception {
    stubTitle(api);
    assertThat(await(() -> adapter().title(TITLE_ID)).value().rating()).as("the fixture's safe")
        .isEqualTo(AgeRating.ALL_AGES);
    api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID)).atPriority(1)
        .willReturn(json(200, resource("manga.json").replace("\"safe\"", "\"suggestive\""))));

    TitleInfo title = await(() -> adapter().title(TITLE_ID)).value();

    assertThat(title.rating()).isEqualTo(AgeRating.FIFTEEN_PLUS);
    assertThat(title.chapters()).isNotEmpty();
  }

  @Test
  void anInspectionAsksForAuthorsAndArtistsAndCarriesTheTitlesDescription() throws Exception {
    stubTitle(api);

    TitleInfo title = await(() -> wallClockAdapter().title(TITLE_ID)).value();

    assertThat(title.metadata()).isNotNull();
    assertThat(title.metadata().summary()).isEqualTo("A fictional title made up for MangaCircus's tests.");
    assertThat(title.metadata().genres()).containsExactly("Adventure");
    assertThat(title.metadata().year()).isEqualTo(2021);
    var asked = api.findAll(getRequestedFor(urlPathEqualTo("/manga/" + TITLE_ID)));
    assertThat(asked).hasSize(1);
    assertThat(asked.get(0).queryParameter("includes[]").values()).containsExactlyInAnyOrder("author", "artist");
  }

  @Test
  void referencesThatAreNotMangaDexsSendNothing() throws Exception {
    MangaDexSource source = adapter();

    assertThat(await(() -> source.title("https://example.org/title/" + TITLE_ID)).describe())
        .contains("is not a MangaDex title URL");
    assertThat(await(() -> source.title("circus-at-dawn"))).isInstanceOf(FetchOutcome.NotFound.class);
    assertThat(await(() -> source.pages(TITLE_ID, new ChapterInfo("c1", "1", "", "en"))).describe())
        .contains("not a MangaDex chapter id");
    assertThat(source.titleIdOf(" https://mangadex.org/title/" + TITLE_ID.toUpperCase() + "/x ")).isEqualTo(TITLE_ID);
    assertThat(api.getAllServeEvents()).isEmpty();
  }

  @Test
  void anAnswerThatIsNotTheApisShapeIsAParseErrorNamingIt() throws Exception {
    api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID)).willReturn(json(200, "{\"result\":\"ok\",\"data\":{}}")));

    assertThat(await(() -> adapter().title(TITLE_ID)).describe()).startsWith("parse error").contains("attributes");
  }

  // ---- rate limits --------------------------------------------------------------------------------------------

  @Test
  void a429NamesTheLongerOfItsTwoWaitsAndHoldsEveryRequestUntilThen() throws Exception {
    stubTitle(api);
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).willReturn(json(429, resource("error-429.json"))
        .withHeader("Retry-After", "5")
        .withHeader("X-RateLimit-Retry-After", String.valueOf(clock.instant().getEpochSecond() + 120))));
    MangaDexSource source = adapter();

    FetchOutcome<List<PageRef>> limited = await(() -> source.pages(TITLE_ID, CHAPTER_1));
    assertThat(limited).isInstanceOfSatisfying(FetchOutcome.RateLimited.class, r -> {
      assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(120));
      assertThat(r.message()).contains("429", "You have been rate limited");
    });

    java.time.Instant namedEnd = clock.instant().plusSeconds(120);
    clock.advance(Duration.ofSeconds(60));
    FetchOutcome<TitleInfo> held = await(() -> source.title(TITLE_ID));
    assertThat(held).isInstanceOfSatisfying(FetchOutcome.Held.class, h -> {
      assertThat(h.until()).isEqualTo(namedEnd);
      assertThat(h.reason()).contains("429");
    });
    assertThat(source.limits().refused()).isEqualTo(1);
    assertThat(source.limits().rateLimitRps()).as("4 halved after the 429, then a tenth more after a clean minute")
        .isCloseTo(2.2, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(journal(api)).as("nothing was sent during the hold").hasSize(1);

    clock.advance(Duration.ofSeconds(61));
    assertThat(await(() -> source.title(TITLE_ID)).ok()).isTrue();
  }

  @Test
  void aSpentBudgetOnASuccessfulAnswerHoldsTheNextRequest() throws Exception {
    stubTitle(api);
    api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID)).willReturn(fixture("manga.json")
        .withHeader("X-RateLimit-Limit", "5").withHeader("X-RateLimit-Remaining", "0")
        .withHeader("X-RateLimit-Retry-After", String.valueOf(clock.instant().getEpochSecond() + 60))));

    FetchOutcome<TitleInfo> outcome = await(() -> adapter().title(TITLE_ID));

    assertThat(outcome).as("held, not refused: the caller waits").isInstanceOfSatisfying(FetchOutcome.Held.class,
        h -> assertThat(h.reason()).isEqualTo(MangaDexSource.REQUEST_HOLD));
    assertThat(journal(api)).extracting(MangaDexApi::path).containsExactly("/manga/" + TITLE_ID);
  }

  @Test
  void aSpentAtHomeBudgetHoldsOnlyAtHomeLookUpsAndThePagesGoOn() throws Exception {
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + CH1)).willReturn(atHome(AT_HOME_1, node("node-a"))
        .withHeader("X-RateLimit-Remaining", "0")
        .withHeader("X-RateLimit-Retry-After", String.valueOf(InstantSource.system().instant().getEpochSecond() + 50))));
    stubPages(api, "node-a", AT_HOME_1, false);
    MangaDexSource source = wallClockAdapter();

    List<PageRef> pages = await(() -> source.pages(TITLE_ID, CHAPTER_1)).value();
    assertThat(await(() -> source.page(pages.get(0))).ok()).as("a page is not an at-home look-up").isTrue();
    FetchOutcome<List<PageRef>> again = await(() -> source.pages(TITLE_ID, CHAPTER_1));

    assertThat(again).isInstanceOfSatisfying(FetchOutcome.Held.class,
        h -> assertThat(h.reason()).isEqualTo(MangaDexSource.AT_HOME_HOLD));
    assertThat(source.limits().holdReason()).isEqualTo(MangaDexSource.AT_HOME_HOLD);
    assertThat(source.limits().holdsWaited()).isEqualTo(1);
    assertThat(requestsTo("/at-home/server/" + CH1)).isEqualTo(1);
  }

  @Test
  void aShortHoldIsWaitedOutInsteadOfFailing() throws Exception {
    // The wall clock, not the test's (see wallClockAdapter), and the hold is checked against it.
    InstantSource wallClock = InstantSource.system();
    long budgetBack = wallClock.instant().getEpochSecond() + 2;
    stubTitle(api);
    api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID)).willReturn(fixture("manga.json")
        .withHeader("X-RateLimit-Remaining", "0")
        .withHeader("X-RateLimit-Retry-After", String.valueOf(budgetBack))));

    assertThat(await(() -> wallClockAdapter().title(TITLE_ID)).ok()).isTrue();

    var requests = journal(api);
    assertThat(requests.get(0).getLoggedDate().getTime()).as("the title was read while the budget was spent")
        .isLessThan(budgetBack * 1_000);
    assertThat(requests.get(1).getLoggedDate().getTime()).as("the feed waited for the budget to come back")
        .isGreaterThanOrEqualTo(budgetBack * 1_000);
  }

  @Test
  void aServerErrorCarriesItsRetryAfter() throws Exception {
    api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID)).willReturn(json(503, "{\"result\":\"error\",\"errors\":"
        + "[{\"status\":503,\"title\":\"Service Unavailable\",\"detail\":\"maintenance\"}]}")
        .withHeader("Retry-After", "7")));

    FetchOutcome<TitleInfo> outcome = await(() -> adapter().title(TITLE_ID));

    assertThat(outcome).isInstanceOfSatisfying(FetchOutcome.ServerError.class, e -> {
      assertThat(e.status()).isEqualTo(503);
      assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(7));
      assertThat(e.message()).contains("maintenance");
    });
  }

  @Test
  void everyAdapterOfOneApiSharesOneLimiterSoTogetherTheyKeepFiveASecond() throws Exception {
    stubTitle(api);
    // The shipped defaults (conf/mangacircus.json); the adapters take their timeouts from it.
    ScraperConfig config = new ScraperConfig(300, false, 120, 1000, 60, 30, new ScraperConfig.Recovery(50, 200),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of(), new ScraperConfig.Failures(300, 2, 1000, 3, 300,
        2, 60), new ScraperConfig.Stall(30, 900, 180));
    SourceConfig source = new SourceConfig("mangadex", api.baseUrl(), 0, 0, SourceConfig.DEFAULT_CHALLENGE_MARKERS,
        Map.of("feedPageSize", 4));
    SourceConfig sameApi = new SourceConfig("mangadex", api.baseUrl() + "/", 0, 0,
        SourceConfig.DEFAULT_CHALLENGE_MARKERS, Map.of("feedPageSize", 4));
    // Two sources of one API, built the way the scraper builds its adapters: with the process's request lines, here
    // even on two HTTP clients.
    RequestLines lines = new RequestLines(InstantSource.system());
    Promise<List<Source>> built = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> built.complete(List.of(
        SourceTypes.resolve("mangadex", source).create(vertx, client, InstantSource.system(), config, lines),
        SourceTypes.resolve("mangadex-again", sameApi).create(vertx, Sources.client(vertx),
            InstantSource.system(), config, lines))));
    List<Source> adapters = MangaDexStubs.await(built.future());

    List<Future<FetchOutcome<TitleInfo>>> titles = new ArrayList<>();
    Promise<Void> asked = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> {
      for (int i = 0; i < 3; i++) {
        for (Source adapter : adapters) {
          titles.add(adapter.title(TITLE_ID));
        }
      }
      asked.complete();
    });
    MangaDexStubs.await(asked.future());
    MangaDexStubs.await(Future.all(titles));

    assertThat(titles).allSatisfy(t -> assertThat(t.result().ok()).isTrue());
    var spacing = spacing(journal(api));
    System.out.println("[MangaDexAdapterIT] two adapters at once: " + spacing);
    assertThat(spacing.requests()).as("6 inspections: title, 2 feed pages, scheduled chapters").isEqualTo(24);
    assertThat(spacing.mostInOneSecond()).isLessThanOrEqualTo(5);
    assertThat(spacing.averageGapMs()).isGreaterThanOrEqualTo(200);
  }
}
