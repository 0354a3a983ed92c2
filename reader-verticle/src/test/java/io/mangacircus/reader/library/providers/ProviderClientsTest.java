package io.mangacircus.reader.library.providers;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.metadata.SeriesMetadata;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Author;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Role;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The AniList and MangaUpdates clients against WireMock stand-ins: what they send, read, pace, wait out and keep. */
class ProviderClientsTest {

  private final WireMockServer server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private Vertx vertx;
  private WebClient web;
  private Instant now = Instant.parse("2026-03-01T10:00:00Z");
  private final InstantSource clock = () -> now;
  /** Every wait asked for; waiting moves the test's clock on instead of sleeping. */
  private final List<Duration> waits = new ArrayList<>();
  private final PacedJsonClient.Delays delays = delay -> {
    waits.add(delay);
    now = now.plus(delay);
    return Future.succeededFuture();
  };

  @BeforeEach
  void start() {
    server.start();
    vertx = Vertx.vertx();
    web = WebClient.create(vertx);
  }

  @AfterEach
  void stop() throws Exception {
    web.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    server.stop();
  }

  private PacedJsonClient client(String name, Duration interval) {
    return new PacedJsonClient(name, web, clock, interval, Duration.ofHours(24), 100, delays);
  }

  private AniListProvider aniList() {
    return new AniListProvider(client("anilist", Duration.ofMillis(667)), server.baseUrl() + ProviderStubs.ANILIST_PATH);
  }

  private MangaUpdatesProvider mangaUpdates() {
    return new MangaUpdatesProvider(client("mangaupdates", Duration.ofSeconds(1)), server.baseUrl());
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aniListSearchSendsOnlyTheTitleAndReadsEveryTitleAndField() throws Exception {
    ProviderStubs.aniList(server);

    List<ProviderEntry> found = await(aniList().search("One Piece"));

    server.verify(1, postRequestedFor(urlEqualTo(ProviderStubs.ANILIST_PATH))
        .withRequestBody(matchingJsonPath("$.variables.search", equalTo("One Piece")))
        .withRequestBody(matchingJsonPath("$.query", com.github.tomakehurst.wiremock.client.WireMock
            .containing("type: MANGA"))));
    JsonObject sent = new JsonObject(server.getAllServeEvents().get(0).getRequest().getBodyAsString());
    assertThat(sent.getJsonObject("variables").fieldNames()).as("only the title (and a page size)")
        .containsExactlyInAnyOrder("search", "perPage");
    assertThat(found).extracting(ProviderEntry::id).containsExactly("30013", "86635");
    ProviderEntry onePiece = found.get(0);
    assertThat(onePiece.url()).isEqualTo("https://anilist.co/manga/30013");
    assertThat(onePiece.titles()).containsExactly("ONE PIECE", "One Piece", "ワンピース", "Wan Pīsu");
    SeriesMetadata m = onePiece.metadata();
    assertThat(m.title()).isEqualTo("One Piece");
    assertThat(m.summary()).startsWith("Gol D. Roger").contains("\n\n(Source").doesNotContain("<br>");
    assertThat(m.authors()).containsExactly(new Author("Eiichiro Oda", Role.WRITER),
        new Author("Eiichiro Oda", Role.PENCILLER), new Author("Stephen Paul", Role.TRANSLATOR));
    assertThat(m.genres()).containsExactly("Action", "Adventure", "Comedy", "Fantasy");
    assertThat(m.tags()).as("spoiler tags left out").containsExactly("Pirates", "Shounen");
    assertThat(m.status()).isEqualTo(SeriesMetadata.Status.ONGOING);
    assertThat(m.year()).isEqualTo(1997);
    assertThat(m.ageRating()).isEqualTo(AgeRating.UNRATED);
    assertThat(m.links()).containsExactly("https://anilist.co/manga/30013");
  }

  @Test
  void aniListDetailsAskForOneMediaById() throws Exception {
    ProviderStubs.aniList(server);

    ProviderEntry entry = await(aniList().details("30013")).orElseThrow();

    server.verify(1, postRequestedFor(urlEqualTo(ProviderStubs.ANILIST_PATH))
        .withRequestBody(matchingJsonPath("$.variables.id", equalTo("30013"))));
    assertThat(entry.id()).isEqualTo("30013");
    assertThat(entry.metadata().title()).isEqualTo("One Piece");
    assertThat(await(aniList().details("not-a-number"))).as("never sent").isEmpty();
    assertThat(server.getAllServeEvents()).hasSize(1);
  }

  @Test
  void mangaUpdatesSearchAndDetailsReadTheirShapes() throws Exception {
    ProviderStubs.mangaUpdates(server);
    MangaUpdatesProvider provider = mangaUpdates();

    List<ProviderEntry> found = await(provider.search("One Piece"));
    ProviderEntry details = await(provider.details("55099564912")).orElseThrow();

    server.verify(1, postRequestedFor(urlEqualTo("/v1/series/search"))
        .withRequestBody(matchingJsonPath("$.search", equalTo("One Piece")))
        .withRequestBody(matchingJsonPath("$.perpage", equalTo("8"))));
    assertThat(found).extracting(ProviderEntry::id).containsExactly("55099564912", "1234");
    assertThat(found.get(0).titles()).as("the hit title counts too").containsExactly("One Piece", "ワンピース");
    assertThat(found.get(0).metadata().year()).isEqualTo(1997);
    SeriesMetadata m = details.metadata();
    assertThat(details.url()).isEqualTo("https://www.mangaupdates.com/series/pb8uwds/one-piece");
    assertThat(details.titles()).containsExactly("One Piece", "ワンピース", "Vua Hải Tặc");
    assertThat(m.summary()).isEqualTo("Greatly influenced by Dragon Ball, One Piece follows Luffy.\n\n"
        + "Second paragraph & more.");
    assertThat(m.authors()).containsExactly(new Author("ODA Eiichiro", Role.WRITER),
        new Author("ODA Eiichiro", Role.PENCILLER));
    assertThat(m.genres()).containsExactly("Action", "Adventure", "Shounen");
    assertThat(m.tags()).containsExactly("Pirate/s", "Devil Fruit/s");
    assertThat(m.status()).isEqualTo(SeriesMetadata.Status.ONGOING);
    assertThat(m.publisher()).isEqualTo("Shueisha");
    assertThat(await(provider.details("99"))).as("an unknown id is a 404, an empty answer").isEmpty();
  }

  @Test
  void a429IsWaitedOutForItsRetryAfterThenAskedAgain() throws Exception {
    server.stubFor(post(urlEqualTo("/v1/series/search")).inScenario("limited").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "7")).willSetStateTo("open"));
    server.stubFor(post(urlEqualTo("/v1/series/search")).inScenario("limited").whenScenarioStateIs("open")
        .willReturn(ProviderStubs.json(ProviderStubs.resource("mangaupdates-search.json"))));

    List<ProviderEntry> found = await(mangaUpdates().search("One Piece"));

    assertThat(found).hasSize(2);
    assertThat(server.getAllServeEvents()).hasSize(2);
    assertThat(waits).as("no wait before the first request, Retry-After's 7 s before the second")
        .containsExactly(Duration.ZERO, Duration.ofSeconds(7));
  }

  @Test
  void requestsArePacedAtTheProvidersRate() throws Exception {
    ProviderStubs.aniList(server);
    AniListProvider provider = aniList();

    await(provider.search("One Piece"));
    await(provider.search("Naruto"));
    await(provider.search("Bleach"));

    assertThat(waits).containsExactly(Duration.ZERO, Duration.ofMillis(667), Duration.ofMillis(667));
  }

  @Test
  void aRepeatedSearchIsAnsweredFromTheCacheUntilItExpires() throws Exception {
    ProviderStubs.aniList(server);
    AniListProvider provider = aniList();

    await(provider.search("One Piece"));
    List<ProviderEntry> again = await(provider.search("One Piece"));
    assertThat(again).hasSize(2);
    assertThat(server.getAllServeEvents()).as("the repeat sent nothing").hasSize(1);

    now = now.plus(Duration.ofHours(25));
    await(provider.search("One Piece"));
    assertThat(server.getAllServeEvents()).as("asked again once expired").hasSize(2);
  }
}
