package io.mangacircus.scraper.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.CoverRequest;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.FollowRequest;
import io.mangacircus.contracts.PreviewRequest;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.contracts.SearchRequest;
import io.mangacircus.contracts.scraper.FollowsReply;
import io.mangacircus.contracts.scraper.JobAddedReply;
import io.mangacircus.contracts.scraper.PreviewReply;
import io.mangacircus.contracts.scraper.SearchReply;
import io.mangacircus.contracts.scraper.SearchResult;
import io.mangacircus.contracts.scraper.SourceProblem;
import io.mangacircus.contracts.scraper.SourcesReply;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.discovery.DiscoveryService;
import io.mangacircus.scraper.follow.Follows;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.search.TitleSearch;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.Circuits;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.html.HtmlDefinitions;
import io.mangacircus.scraper.source.html.HtmlSource;
import io.mangacircus.scraper.source.local.LocalImportSource;
import io.mangacircus.testing.MutableClock;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Search, preview, covers and follows on a real event bus, queue and follows file, over real sources: a local import
 * folder (searchable by folder name), an HTML site whose definition has no search block (cannot search) and a second
 * local folder whose circuit is open.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 1, timeUnit = TimeUnit.MINUTES)
class SearchRequestsTest {

  private static final DeliveryOptions SHORT = new DeliveryOptions().setSendTimeout(10_000);

  @TempDir
  Path data;

  @TempDir
  Path imports;

  private final MutableClock clock = new MutableClock();
  private Vertx vertx;
  private JobQueue queue;
  private Follows follows;
  private EventLog events;
  private Circuits circuits;
  private OperatorRequests requests;

  @BeforeEach
  void start(Vertx vertx) throws Exception {
    this.vertx = vertx;
    for (String title : List.of("Good Series", "Good Two", "Other")) {
      Files.write(Files.createDirectories(imports.resolve(title).resolve("Chapter 1")).resolve("1.png"),
          new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    }
    Map<String, SourceConfig> sources = new LinkedHashMap<>();
    sources.put("local", new SourceConfig("local", "", 0L, 0L));
    sources.put("site", new SourceConfig("html", "http://127.0.0.1:1", 0L, 0L));
    sources.put("shut", new SourceConfig("local", "", 0L, 0L));
    events = new EventLog(data.resolve("scraper/events.log"));
    queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")), events, clock, sources.keySet(),
        QueueListener.NONE);
    follows = Follows.open(data.resolve("scraper/follows.json"), clock, List::of);
    ScraperConfig.Failures failures = new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60);
    circuits = new Circuits(vertx, sources.keySet(), failures);
    Map<String, Source> adapters = new LinkedHashMap<>();
    adapters.put("local", new LocalImportSource("local", imports));
    adapters.put("site", new HtmlSource("site", HtmlDefinitions.parse(definition(), "site.json"),
        "http://127.0.0.1:1", List.of(), 0, vertx, io.mangacircus.scraper.source.Sources.client(vertx), 1000, 1000));
    adapters.put("shut", new LocalImportSource("shut", imports));
    Map<String, Source> guarded = new LinkedHashMap<>();
    adapters.forEach((name, adapter) -> guarded.put(name, new CircuitGuardedSource(adapter, circuits.of(name), vertx,
        failures)));
    circuits.of("shut").open();
    DiscoveryService discovery = new DiscoveryService(vertx, queue, follows, events, data,
        new ScraperConfig.Discovery(false, "03:00"), sources.keySet(), clock, ZoneId.of("UTC"));
    Map<String, String> types = new LinkedHashMap<>();
    sources.forEach((name, source) -> types.put(name, source.type()));
    requests = new OperatorRequests(vertx);
    requests.register(new OperatorRequests.Parts(queue, new ProgressBoard(p -> { }), sources, circuits, guarded::get,
        false, events, clock, discovery, new io.mangacircus.scraper.publish.LibraryFolders(data.resolve("library")),
        follows, new TitleSearch(vertx, new TitleSearch.Parts(types, guarded::get,
            circuits::state, name -> Duration.ZERO), clock)));
  }

  private static byte[] definition() {
    return new JsonObject().put("name", "Site").put("baseUrl", "http://127.0.0.1:1")
        .put("titleUrl", "/manga/{titleId}").put("chapterUrl", "/chapters/{chapterId}")
        .put("title", new JsonObject().put("selector", "h1"))
        .put("chapters", new JsonObject().put("item", "#chapters a[href]")
            .put("id", new JsonObject().put("attribute", "href").put("pattern", "/chapters/(?<value>[^?#]+)"))
            .put("number", new JsonObject().put("pattern", "(?<value>[0-9.]+)")))
        .put("pages", new JsonObject().put("image", "img.js-page")).encode().getBytes(StandardCharsets.UTF_8);
  }

  @AfterEach
  void stop() throws Exception {
    requests.close();
    circuits.close();
    events.close();
  }

  private JsonObject ask(String address, JsonObject body) throws Exception {
    return (JsonObject) vertx.eventBus().request(address, body, SHORT).toCompletionStage().toCompletableFuture()
        .get(20, TimeUnit.SECONDS).body();
  }

  private int refusal(String address, JsonObject body) throws Exception {
    try {
      Object answer = vertx.eventBus().request(address, body, SHORT).toCompletionStage().toCompletableFuture()
          .get(20, TimeUnit.SECONDS).body();
      throw new AssertionError(address + " answered " + answer);
    } catch (ExecutionException e) {
      return ((ReplyException) e.getCause()).failureCode();
    }
  }

  @Test
  void theSourcesListSaysWhichCanSearchAndWhichCircuitIsOpen() throws Exception {
    SourcesReply reply = SourcesReply.fromJson(ask(Addresses.SCRAPER_SOURCES_LIST, ScraperRequests.list()));

    assertThat(reply.sources()).containsExactly(new SourcesReply.Source("local", "local", true, "closed"),
        new SourcesReply.Source("site", "html", false, "closed"), new SourcesReply.Source("shut", "local", true, "open"));
  }

  @Test
  void aSearchOfEverySourceAnswersWithResultsWhileTheOthersReportTheirProblems() throws Exception {
    SearchReply reply = SearchReply.fromJson(ask(Addresses.SCRAPER_TITLES_SEARCH,
        new SearchRequest(null, "good", 20).toJson()));

    assertThat(reply.results()).extracting(SearchResult::source, SearchResult::titleId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("local", "Good Series"),
            org.assertj.core.groups.Tuple.tuple("local", "Good Two"));
    assertThat(reply.results().get(0).chapterCount()).isEqualTo(1);
    assertThat(reply.problems()).extracting(SourceProblem::source, SourceProblem::code).containsExactly(
        org.assertj.core.groups.Tuple.tuple("site", SourceProblem.CANNOT_SEARCH),
        org.assertj.core.groups.Tuple.tuple("shut", SourceProblem.CIRCUIT_OPEN));
  }

  @Test
  void aNamedSourceThatCannotSearchAnswersItsProblemNotAFailure() throws Exception {
    SearchReply reply = SearchReply.fromJson(ask(Addresses.SCRAPER_TITLES_SEARCH,
        new SearchRequest("site", "good", 20).toJson()));

    assertThat(reply.results()).isEmpty();
    assertThat(reply.problems()).singleElement().satisfies(p -> {
      assertThat(p.code()).isEqualTo(SourceProblem.CANNOT_SEARCH);
      assertThat(p.message()).contains("site").contains("cannot search");
    });
    assertThat(refusal(Addresses.SCRAPER_TITLES_SEARCH, new SearchRequest("nope", "good", 20).toJson()))
        .isEqualTo(ErrorCode.UNKNOWN_SOURCE.code());
    assertThat(refusal(Addresses.SCRAPER_TITLES_SEARCH, new JsonObject().put("v", 1).put("query", " ")))
        .isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
  }

  @Test
  void aSearchIsAnsweredFromTheCacheForAFewMinutesWhateverTheCaseAndSpacing() throws Exception {
    SearchRequest first = new SearchRequest("local", "good", 20);
    assertThat(SearchReply.fromJson(ask(Addresses.SCRAPER_TITLES_SEARCH, first.toJson())).results()).hasSize(2);
    Files.createDirectories(imports.resolve("Good Three"));

    SearchReply cached = SearchReply.fromJson(ask(Addresses.SCRAPER_TITLES_SEARCH,
        new SearchRequest("local", "GOOD", 20).toJson()));
    clock.advance(TitleSearch.CACHE_TTL.plusSeconds(1));
    SearchReply fresh = SearchReply.fromJson(ask(Addresses.SCRAPER_TITLES_SEARCH, first.toJson()));

    assertThat(cached.results()).hasSize(2);
    assertThat(fresh.results()).extracting(SearchResult::titleId).contains("Good Three");
  }

  @Test
  void aPreviewListsTheTitlesChaptersAndAnUnknownTitleOrCoverIsNotFound() throws Exception {
    PreviewReply preview = PreviewReply.fromJson(ask(Addresses.SCRAPER_TITLES_PREVIEW,
        new PreviewRequest("local", "Good Series").toJson()));

    assertThat(preview.title()).isEqualTo("Good Series");
    assertThat(preview.chapters()).singleElement().satisfies(c -> {
      assertThat(c.language()).isEqualTo("en");
      assertThat(c.downloadable()).isTrue();
    });
    assertThat(preview.languages()).containsExactly("en");
    assertThat(refusal(Addresses.SCRAPER_TITLES_PREVIEW, new PreviewRequest("local", "Missing").toJson()))
        .isEqualTo(ErrorCode.NOT_FOUND.code());
    assertThat(refusal(Addresses.SCRAPER_TITLES_PREVIEW, new PreviewRequest("shut", "Good Series").toJson()))
        .isEqualTo(ErrorCode.SOURCE_UNAVAILABLE.code());
    assertThat(refusal(Addresses.SCRAPER_COVERS_FETCH, new CoverRequest("local", "abc").toJson()))
        .isEqualTo(ErrorCode.NOT_FOUND.code());
  }

  @Test
  void addingWithFollowFollowsInTheJobsLanguageAndUnfollowingKeepsTheJob() throws Exception {
    JobAddedReply added = JobAddedReply.fromJson(ask(Addresses.SCRAPER_JOBS_ADD, new AddTitleRequest("local",
        "Good Series", false, "fr", List.of("g1"), true).toJson()));

    assertThat(queue.job(added.job().id()).orElseThrow().language()).isEqualTo("fr");
    assertThat(queue.job(added.job().id()).orElseThrow().preferredGroups()).containsExactly("g1");
    FollowsReply listed = FollowsReply.fromJson(ask(Addresses.SCRAPER_FOLLOWS_LIST, ScraperRequests.list()));
    assertThat(listed.titles()).singleElement().satisfies(f -> {
      assertThat(f.titleId()).isEqualTo("Good Series");
      assertThat(f.language()).isEqualTo("fr");
      assertThat(f.followedAt()).isEqualTo(MutableClock.START);
      assertThat(f.lastCheckAt()).isNull();
      assertThat(f.nextCheckAt()).as("discovery is off").isNull();
    });

    FollowsReply set = FollowsReply.fromJson(ask(Addresses.SCRAPER_FOLLOWS_SET,
        new FollowRequest("local", "Other", true, null).toJson()));
    FollowsReply unfollowed = FollowsReply.fromJson(ask(Addresses.SCRAPER_FOLLOWS_SET,
        new FollowRequest("local", "Good Series", false, null).toJson()));

    assertThat(set.titles()).singleElement().satisfies(f -> assertThat(f.language()).isEqualTo("en"));
    assertThat(unfollowed.titles()).isEmpty();
    assertThat(FollowsReply.fromJson(ask(Addresses.SCRAPER_FOLLOWS_LIST, ScraperRequests.list())).titles())
        .extracting(FollowsReply.Followed::titleId).containsExactly("Other");
    assertThat(queue.job(added.job().id())).as("unfollow keeps the job").isPresent();
    assertThat(new JsonObject(Files.readString(data.resolve("scraper/follows.json"))).getJsonArray("titles"))
        .hasSize(1);
    assertThat(refusal(Addresses.SCRAPER_FOLLOWS_SET, new FollowRequest("nope", "x", true, null).toJson()))
        .isEqualTo(ErrorCode.UNKNOWN_SOURCE.code());
  }
}
