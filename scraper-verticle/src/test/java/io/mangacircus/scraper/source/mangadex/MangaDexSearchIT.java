package io.mangacircus.scraper.source.mangadex;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.mangacircus.testing.MangaDexApi.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.contracts.CoverRequest;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.SearchRequest;
import io.mangacircus.contracts.scraper.SearchReply;
import io.mangacircus.contracts.scraper.SearchResult;
import io.mangacircus.contracts.scraper.SourceProblem;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.search.TitleSearch;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.Circuits;
import io.mangacircus.scraper.source.RequestLimiter;
import io.mangacircus.scraper.source.RequestLine;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitleInfo;
import io.mangacircus.scraper.source.TitlePreview;
import io.mangacircus.scraper.source.html.HtmlDefinitions;
import io.mangacircus.scraper.source.html.HtmlSource;
import io.mangacircus.testing.MutableClock;
import io.mangacircus.testing.TestImages;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Title search, preview, covers and the group preference against a WireMock MangaDex answering in the real API's
 * shapes ({@code src/test/resources/mangadex/search-*.json}, {@code manga-starfall.json}, {@code feed-two-groups.json})
 * and a WireMock HTML site with a search page; the search service over both, one of them behind an open circuit.
 */
class MangaDexSearchIT {

  static final String STARFALL = "5a1c0e2b-7c3d-4e8f-9a0b-1c2d3e4f5a01";
  static final String ALPHA = "6e3b1c2a-aaaa-4aaa-8aaa-00000000000a";
  static final String BETA = "6e3b1c2a-bbbb-4bbb-8bbb-00000000000b";
  static final String COVER_FILE = "b3a1c9d2-0000-4000-8000-000000000001.jpg";

  private static String chapter(int n) {
    return String.format("7d000000-0000-4000-8000-%012d", n);
  }

  private final WireMockServer api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final WireMockServer site = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final MutableClock clock = new MutableClock();
  private Vertx vertx;
  private WebClient client;

  @BeforeEach
  void start() {
    api.start();
    site.start();
    vertx = Vertx.vertx();
    client = Sources.client(vertx);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    api.stop();
    site.stop();
  }

  private MangaDexSource mangadex() {
    return mangadex(clock);
  }

  /**
   * The adapter on the wall clock, for cases that never move the clock: on the test's frozen clock every request's
   * timer is measured from the same instant, so a case's requests wait the sum of their slots instead of their spacing.
   */
  private MangaDexSource wallClockMangadex() {
    return mangadex(InstantSource.system());
  }

  private MangaDexSource mangadex(InstantSource time) {
    return new MangaDexSource("md", api.baseUrl(), new MangaDexOptions(false, 500), client,
        new RequestLine(new RequestLimiter(time)), time, 5_000, 5_000, SourceConfig.DEFAULT_CHALLENGE_MARKERS);
  }

  private HtmlSource htmlSite() {
    JsonObject definition = new JsonObject().put("name", "Star site").put("baseUrl", site.baseUrl())
        .put("titleUrl", "/manga/{titleId}").put("chapterUrl", "/chapters/{chapterId}")
        .put("title", new JsonObject().put("selector", "h1"))
        .put("chapters", new JsonObject().put("item", "#chapters a[href]")
            .put("id", new JsonObject().put("attribute", "href").put("pattern", "/chapters/(?<value>[^?#]+)"))
            .put("number", new JsonObject().put("pattern", "(?<value>[0-9.]+)")))
        .put("pages", new JsonObject().put("image", "img.js-page"))
        .put("search", new JsonObject().put("url", "/search?q={query}").put("item", "div.results > div.card")
            .put("id", new JsonObject().put("selector", "a.title").put("attribute", "href"))
            .put("title", new JsonObject().put("selector", "a.title"))
            .put("cover", new JsonObject().put("selector", "img").put("attribute", "data-src")));
    return new HtmlSource("site", HtmlDefinitions.parse(definition.encode().getBytes(StandardCharsets.UTF_8),
        "site.json"), site.baseUrl(), List.of(), 0, vertx, client, 5_000, 5_000);
  }

  private void stubSitePages() {
    site.stubFor(get(urlPathEqualTo("/search")).withQueryParam("q", equalTo("star fall")).willReturn(aResponse()
        .withStatus(200).withHeader("Content-Type", "text/html; charset=utf-8").withBody("""
            <html><body><div class="results">
              <div class="card"><img data-src="/img/covers/starfall.png"><a class="title" href="/manga/starfall-1">Starfall</a></div>
              <div class="card"><img data-src=""><a class="title" href="/manga/starfall-2">Starfall: Ashes</a></div>
            </div></body></html>""")));
    site.stubFor(get(urlPathEqualTo("/search")).withQueryParam("q", equalTo("nothing")).willReturn(aResponse()
        .withStatus(200).withHeader("Content-Type", "text/html").withBody(
            "<html><body><div class=\"results\"><p>No results</p></div></body></html>")));
  }

  /** Calls on a Vert.x context, as the scraper does, and waits for the outcome. */
  private <T> T await(Supplier<Future<T>> call) {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> call.get().onComplete(done::handle));
    return MangaDexStubs.await(done.future());
  }

  private Throwable failure(Supplier<Future<?>> call) {
    Promise<Throwable> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> call.get().onComplete(ar -> done.complete(ar.cause())));
    return MangaDexStubs.await(done.future());
  }

  // ---- MangaDex -----------------------------------------------------------------------------------------------

  @Test
  void aSearchAsksForTitlesWithCoversInTheConfiguredRatingsAndBuildsEachCoverUrl() {
    api.stubFor(get(urlPathEqualTo("/manga")).withQueryParam("title", equalTo("starfall"))
        .willReturn(fixture("search-starfall.json")));

    List<TitleHit> hits = await(() -> mangadex().search("starfall", 2)).value();

    assertThat(hits).extracting(TitleHit::titleId, TitleHit::title, TitleHit::year, TitleHit::status).containsExactly(
        tuple(STARFALL, "Starfall", 2019, "ongoing"),
        tuple("5a1c0e2b-7c3d-4e8f-9a0b-1c2d3e4f5a02", "Starfall Academy", null, "completed"));
    assertThat(hits.get(0).altTitles()).containsExactly("Hoshi Ochi", "Chute d'étoiles");
    assertThat(hits.get(0).languages()).containsExactly("en", "fr");
    assertThat(hits.get(0).coverUrl()).isEqualTo(api.baseUrl() + "/covers/" + STARFALL + "/" + COVER_FILE
        + ".256.jpg");
    assertThat(hits.get(0).url()).isEqualTo("https://mangadex.org/title/" + STARFALL);
    LoggedRequest request = api.findAll(getRequestedFor(urlPathEqualTo("/manga"))).get(0);
    assertThat(request.queryParameter("limit").firstValue()).isEqualTo("2");
    assertThat(request.queryParameter("includes[]").values()).containsExactly("cover_art");
    assertThat(request.queryParameter("contentRating[]").values()).containsExactly("safe", "suggestive");
  }

  @Test
  void theContentRatingsOfASearchAreAnOptionOfTheSource() {
    api.stubFor(get(urlPathEqualTo("/manga")).willReturn(fixture("search-empty.json")));
    MangaDexOptions options = MangaDexOptions.of("scraper.sources.md.options",
        Map.of("contentRatings", List.of("safe")));
    MangaDexSource source = new MangaDexSource("md", api.baseUrl(), options, client,
        new RequestLine(new RequestLimiter(clock)), clock, 5_000, 5_000, SourceConfig.DEFAULT_CHALLENGE_MARKERS);

    assertThat(await(() -> source.search("nothing at all", 10)).value()).as("a search that finds nothing").isEmpty();
    assertThat(api.findAll(getRequestedFor(urlPathEqualTo("/manga"))).get(0).queryParameter("contentRating[]")
        .values()).containsExactly("safe");
  }

  @Test
  void aPreviewListsEveryLanguageAndGroupWithTheGroupsNames() {
    api.stubFor(get(urlPathEqualTo("/manga/" + STARFALL)).willReturn(fixture("manga-starfall.json")));
    api.stubFor(get(urlPathEqualTo("/manga/" + STARFALL + "/feed")).willReturn(fixture("feed-two-groups.json")));

    TitlePreview preview = await(() -> mangadex().preview(STARFALL)).value();

    assertThat(preview.description()).isEqualTo("Stars fall on a quiet town.");
    assertThat(preview.tags()).containsExactly("Action", "Isekai");
    assertThat(preview.groups()).extracting(TitlePreview.Group::name)
        .containsExactly("Alpha Scans", "Beta Team", "Gamma Traductions");
    assertThat(preview.chapters()).hasSize(6);
    assertThat(preview.chapters()).extracting(c -> c.info().number() + " " + c.info().language() + " "
        + c.groupIds().get(0)).startsWith("1 en " + ALPHA, "1 en " + BETA);
    assertThat(preview.languages()).containsExactly("en", "fr");
    LoggedRequest feed = api.findAll(getRequestedFor(urlPathEqualTo("/manga/" + STARFALL + "/feed"))).get(0);
    assertThat(feed.queryParameter("includes[]").values()).containsExactly("scanlation_group");
    assertThat(feed.queryParameter("translatedLanguage[]").isPresent()).as("every language").isFalse();
    assertThat(api.findAll(getRequestedFor(urlPathEqualTo("/manga/" + STARFALL))).get(0)
        .queryParameter("includes[]").values()).containsExactly("cover_art");
  }

  @Test
  void anInspectionAsksForTheJobsLanguageAndKeepsOneUploadPerNumberByGroupPreference() {
    api.stubFor(get(urlPathEqualTo("/manga/" + STARFALL)).willReturn(fixture("manga-starfall.json")));
    api.stubFor(get(urlPathEqualTo("/manga/" + STARFALL + "/feed")).willReturn(fixture("feed-two-groups.json")));
    api.stubFor(get(urlPathEqualTo("/manga/" + STARFALL + "/feed")).withQueryParam("includeFuturePublishAt",
        equalTo("1")).atPriority(1).willReturn(fixture("feed-empty.json")));
    MangaDexSource source = wallClockMangadex();

    TitleInfo alpha = await(() -> source.title(STARFALL, Duration.ZERO, new Source.Wanted("en", List.of(ALPHA))))
        .value();
    TitleInfo firstUploaded = await(() -> source.title(STARFALL, Duration.ZERO, Source.Wanted.DEFAULT)).value();
    await(() -> source.title(STARFALL, Duration.ZERO, new Source.Wanted("fr", List.of())));

    assertThat(alpha.chapters().stream().filter(c -> c.language().equals("en")).map(c -> c.id()))
        .as("Alpha's 1 and 3, Beta's 2 (Alpha has none)").containsExactly(chapter(1), chapter(3), chapter(4));
    assertThat(firstUploaded.chapters().stream().filter(c -> c.language().equals("en")).map(c -> c.id()))
        .as("the earliest upload of each number").containsExactly(chapter(2), chapter(3), chapter(5));
    assertThat(api.findAll(getRequestedFor(urlPathEqualTo("/manga/" + STARFALL + "/feed"))).stream()
        .map(r -> r.queryParameter("translatedLanguage[]").firstValue()).distinct()).containsExactly("en", "fr");
  }

  // ---- the search service over MangaDex and an HTML site ------------------------------------------------------

  private TitleSearch service(Map<String, Source> adapters, Circuits circuits) {
    ScraperConfig.Failures failures = new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60);
    Map<String, Source> guarded = new LinkedHashMap<>();
    adapters.forEach((name, adapter) -> guarded.put(name, new CircuitGuardedSource(adapter, circuits.of(name), vertx,
        failures)));
    Map<String, String> types = new LinkedHashMap<>();
    adapters.keySet().forEach(name -> types.put(name, name.equals("md") ? "mangadex" : "html"));
    return new TitleSearch(vertx, new TitleSearch.Parts(types, guarded::get, circuits::state, name -> Duration.ZERO),
        clock);
  }

  private Circuits circuits(List<String> names) {
    return new Circuits(vertx, names, new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60));
  }

  @Test
  void anHtmlSitesSearchPageGivesTitlesWithCoversAndAnEmptyPageGivesNone() {
    stubSitePages();
    HtmlSource source = htmlSite();

    List<TitleHit> hits = await(() -> source.search("star fall", 20)).value();

    assertThat(hits).extracting(TitleHit::titleId, TitleHit::title).containsExactly(tuple("starfall-1", "Starfall"),
        tuple("starfall-2", "Starfall: Ashes"));
    assertThat(hits.get(0).coverUrl()).isEqualTo(site.baseUrl() + "/img/covers/starfall.png");
    assertThat(hits.get(1).coverUrl()).as("an empty cover attribute is no cover").isNull();
    assertThat(hits.get(0).url()).isEqualTo(site.baseUrl() + "/manga/starfall-1");
    assertThat(await(() -> source.search("nothing", 20)).value()).isEmpty();
  }

  @Test
  void aSourceWhoseCircuitIsOpenIsReportedWhileTheOtherSourceAnswers() {
    stubSitePages();
    Circuits circuits = circuits(List.of("md", "site"));
    Map<String, Source> adapters = new LinkedHashMap<>();
    adapters.put("md", mangadex());
    adapters.put("site", htmlSite());
    TitleSearch search = service(adapters, circuits);
    circuits.of("md").open();

    SearchReply reply = await(() -> search.search(new SearchRequest(null, "star fall", 20)));

    assertThat(reply.results()).extracting(SearchResult::source).containsOnly("site").hasSize(2);
    assertThat(reply.problems()).singleElement().satisfies(p -> {
      assertThat(p.source()).isEqualTo("md");
      assertThat(p.code()).isEqualTo(SourceProblem.CIRCUIT_OPEN);
    });
    assertThat(api.getAllServeEvents()).as("nothing was sent to the open circuit's site").isEmpty();
    circuits.close();
  }

  @Test
  void aCoverIsFetchedByItsIdOnlyAndMustBeASmallImage() {
    api.stubFor(get(urlPathEqualTo("/manga")).willReturn(fixture("search-starfall.json")));
    byte[] png = TestImages.png(7);
    api.stubFor(get(urlPathEqualTo("/covers/" + STARFALL + "/" + COVER_FILE + ".256.jpg")).willReturn(aResponse()
        .withStatus(200).withHeader("Content-Type", "image/jpeg").withBody(png)));
    api.stubFor(get(urlPathEqualTo("/covers/5a1c0e2b-7c3d-4e8f-9a0b-1c2d3e4f5a02/"
        + "b3a1c9d2-0000-4000-8000-000000000002.png.256.jpg")).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "image/jpeg").withBody("<html>not an image</html>")));
    Circuits circuits = circuits(List.of("md"));
    TitleSearch search = service(Map.of("md", wallClockMangadex()), circuits);

    SearchReply reply = await(() -> search.search(new SearchRequest("md", "starfall", 2)));
    String good = reply.results().get(0).coverId();
    String bad = reply.results().get(1).coverId();
    TitleSearch.Cover cover = await(() -> search.cover(new CoverRequest("md", good)));

    assertThat(good).doesNotContain("http").doesNotContain("/");
    assertThat(cover.bytes()).isEqualTo(png);
    assertThat(cover.contentType()).as("sniffed, not the header").isEqualTo("image/png");
    assertThat(failure(() -> search.cover(new CoverRequest("md", bad))))
        .isInstanceOfSatisfying(TitleSearch.Refusal.class, r -> assertThat(r.code()).isEqualTo(ErrorCode.BAD_IMAGE));
    assertThat(failure(() -> search.cover(new CoverRequest("md", "unknown-id"))))
        .isInstanceOfSatisfying(TitleSearch.Refusal.class, r -> assertThat(r.code()).isEqualTo(ErrorCode.NOT_FOUND));
    api.stubFor(get(urlPathEqualTo("/covers/" + STARFALL + "/" + COVER_FILE + ".256.jpg")).willReturn(aResponse()
        .withStatus(200).withHeader("Content-Type", "image/png").withBody(new byte[3 * 1024 * 1024])));
    assertThat(failure(() -> search.cover(new CoverRequest("md", good))))
        .isInstanceOfSatisfying(TitleSearch.Refusal.class, r -> assertThat(r.code()).isEqualTo(ErrorCode.BAD_IMAGE));
    circuits.close();
  }

  @Test
  void aRepeatedSearchIsAnsweredFromTheCacheUntilItExpires() {
    api.stubFor(get(urlPathEqualTo("/manga")).willReturn(fixture("search-starfall.json")));
    Circuits circuits = circuits(List.of("md"));
    TitleSearch search = service(Map.of("md", mangadex()), circuits);

    await(() -> search.search(new SearchRequest("md", "starfall", 2)));
    await(() -> search.search(new SearchRequest("md", " Starfall ", 2)));
    assertThat(api.findAll(getRequestedFor(urlPathEqualTo("/manga")))).hasSize(1);
    clock.advance(TitleSearch.CACHE_TTL);
    await(() -> search.search(new SearchRequest("md", "starfall", 2)));
    assertThat(api.findAll(getRequestedFor(urlPathEqualTo("/manga")))).hasSize(2);
    circuits.close();
  }
}
