package io.mangacircus.reader.finder;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.CoverRequest;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.FollowRequest;
import io.mangacircus.contracts.PreviewRequest;
import io.mangacircus.contracts.SearchRequest;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.testing.TestImages;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader's title finder routes over real HTTP, with the real reader verticle and event bus and a small stand-in for
 * the scraper's consumers (which decode each request with its contract record, as the scraper does).
 */
class TitleFinderRoutesTest {

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private final List<Object> received = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    new LibraryFixture(data).chapter("starfall", "Starfall Circus", 1, 1, Instant.parse("2024-01-01T10:00:00Z"));
    new LibraryFixture(data).chapter("starfall", "Starfall Circus", 2, 1, Instant.parse("2024-01-02T10:00:00Z"));
    reader = ReaderUnderTest.start(data);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  private void scraper(String address, Handler<Message<Object>> handler) throws Exception {
    reader.vertx().eventBus().consumer(address, handler).completion().toCompletionStage().toCompletableFuture()
        .get(5, TimeUnit.SECONDS);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return reader.text(reader.get(path).header("Authorization", "Bearer " + ReaderUnderTest.ADMIN_TOKEN));
  }

  private HttpResponse<String> send(String method, String path, JsonObject body) throws Exception {
    return reader.text(reader.request(method, path, body.encode())
        .header("Authorization", "Bearer " + ReaderUnderTest.ADMIN_TOKEN));
  }

  private static JsonObject json(HttpResponse<String> answer) {
    return new JsonObject(answer.body());
  }

  @Test
  void aSearchShowsOtherSourcesResultsWithCoverLinksWhileOneSourcesCircuitIsOpen() throws Exception {
    scraper(Addresses.SCRAPER_TITLES_SEARCH, message -> {
      received.add(SearchRequest.fromJson(message.body()));
      message.reply(new JsonObject().put("v", 1).put("query", "starfall")
          .put("results", new JsonArray().add(new JsonObject().put("source", "mangadex").put("titleId", "t-1")
              .put("title", "Starfall Circus").put("altTitles", new JsonArray().add("Hoshifuri"))
              .put("year", 2021).put("status", "ongoing").put("languages", new JsonArray().add("en"))
              .put("chapterCount", null).put("coverId", "cov/1").put("url", null)))
          .put("problems", new JsonArray().add(new JsonObject().put("source", "mangapill").put("code", "circuit_open")
              .put("message", "the circuit of mangapill is open"))));
    });

    HttpResponse<String> answer = get("/api/admin/search?q=%20starfall%20");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonObject body = json(answer);
    assertThat(body.containsKey("v")).isFalse();
    assertThat(body.getJsonArray("results")).hasSize(1);
    assertThat(body.getJsonArray("results").getJsonObject(0).getString("cover"))
        .isEqualTo("/api/admin/covers/mangadex/cov%2F1");
    assertThat(body.getJsonArray("problems").getJsonObject(0).getString("code")).isEqualTo("circuit_open");
    SearchRequest sent = (SearchRequest) received.get(0);
    assertThat(sent.query()).isEqualTo("starfall");
    assertThat(sent.source()).isNull();
    assertThat(sent.limit()).isEqualTo(20);
  }

  @Test
  void aSearchResultTheLibraryAlreadyHasSaysSoWithItsSeriesAndTheLibrarysOwnCover() throws Exception {
    scraper(Addresses.SCRAPER_TITLES_SEARCH, message -> message.reply(new JsonObject().put("v", 1)
        .put("query", "starfall").put("problems", new JsonArray())
        .put("results", new JsonArray()
            .add(new JsonObject().put("source", "fixture").put("titleId", "starfall").put("title", "Starfall Circus")
                .put("coverId", null))
            .add(new JsonObject().put("source", "mangadex").put("titleId", "starfall").put("title", "Starfall")
                .put("coverId", "c2")))));

    HttpResponse<String> answer = get("/api/admin/search?q=starfall");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonArray results = json(answer).getJsonArray("results");
    JsonObject held = results.getJsonObject(0);
    assertThat(held.getBoolean("inLibrary")).as("the library has fixture/starfall: %s", held).isTrue();
    assertThat(held.getString("series")).isEqualTo("starfall");
    assertThat(held.getString("libraryCover")).isEqualTo("/api/series/starfall/cover");
    assertThat(held.getString("cover")).isNull();
    JsonObject other = results.getJsonObject(1);
    assertThat(other.getBoolean("inLibrary")).as("same title id, another source: %s", other).isFalse();
    assertThat(other.getString("series")).isNull();
    assertThat(other.getString("libraryCover")).isNull();
    assertThat(other.getString("cover")).isEqualTo("/api/admin/covers/mangadex/c2");
  }

  @Test
  void aSearchMayTakeLongerThanTheReadersUsualScraperTimeoutBecauseItReachesTheSites() throws Exception {
    // The reader under test waits 2 s for answers from the scraper's own state; a search goes out to every site.
    scraper(Addresses.SCRAPER_TITLES_SEARCH, message -> reader.vertx().setTimer(3_000, id -> message.reply(
        new JsonObject().put("v", 1).put("query", "starfall").put("results", new JsonArray())
            .put("problems", new JsonArray()))));

    HttpResponse<String> answer = get("/api/admin/search?q=starfall");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
  }

  @Test
  void aSearchNamingOneSourceAndALimitAsksForExactlyThat() throws Exception {
    scraper(Addresses.SCRAPER_TITLES_SEARCH, message -> {
      received.add(SearchRequest.fromJson(message.body()));
      message.reply(new JsonObject().put("v", 1).put("query", "ab").put("results", new JsonArray())
          .put("problems", new JsonArray()));
    });

    assertThat(get("/api/admin/search?q=ab&source=mangadex&limit=5").statusCode()).isEqualTo(200);

    SearchRequest sent = (SearchRequest) received.get(0);
    assertThat(sent.source()).isEqualTo("mangadex");
    assertThat(sent.limit()).isEqualTo(5);
  }

  @Test
  void badSearchInputIsRefusedWithASentenceAndNeverReachesTheScraper() throws Exception {
    scraper(Addresses.SCRAPER_TITLES_SEARCH, message -> {
      received.add(message.body());
      message.reply(new JsonObject().put("v", 1));
    });
    Map<String, String> refused = Map.of(
        "/api/admin/search", "q is required",
        "/api/admin/search?q=%20%20", "q is required",
        "/api/admin/search?q=" + "a".repeat(201), "longer than 200",
        "/api/admin/search?q=ab&source=..%2Fetc", "not a source name",
        "/api/admin/search?q=ab&limit=0", "limit must be",
        "/api/admin/search?q=ab&limit=many", "limit must be",
        "/api/admin/search?q=a%01b", "control character");

    for (Map.Entry<String, String> request : refused.entrySet()) {
      HttpResponse<String> answer = get(request.getKey());
      assertThat(answer.statusCode()).as(request.getKey()).isEqualTo(400);
      assertThat(json(answer).getString("error")).isEqualTo("bad_request");
      assertThat(json(answer).getString("message")).as(request.getKey()).contains(request.getValue());
    }
    assertThat(received).isEmpty();
  }

  @Test
  void traversalInTitleAndCoverIdsIsRefused() throws Exception {
    scraper(Addresses.SCRAPER_TITLES_PREVIEW, message -> received.add(message.body()));
    scraper(Addresses.SCRAPER_COVERS_FETCH, message -> received.add(message.body()));

    for (String path : List.of("/api/admin/titles/mangadex/..%2F..%2Fsecret", "/api/admin/titles/mangadex/a%2F..",
        "/api/admin/covers/mangadex/x%2F..%2F..%2Freader.db", "/api/admin/covers/mangadex/a%5Cb", "/api/admin/titles/bad%20source/t-1",
        "/api/admin/covers/mangadex/" + "x".repeat(201))) {
      HttpResponse<String> answer = get(path);
      assertThat(answer.statusCode()).as(path + " " + answer.body()).isEqualTo(400);
      assertThat(json(answer).getString("error")).as(path).isEqualTo("bad_request");
    }
    assertThat(received).isEmpty();
    try (Stream<Path> files = Files.list(data)) {
      assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("secret");
    }
  }

  @Test
  void thePreviewMarksTheChaptersTheLibraryHoldsByIdOrByNumberInTheirLanguage() throws Exception {
    scraper(Addresses.SCRAPER_TITLES_PREVIEW, message -> {
      PreviewRequest request = PreviewRequest.fromJson(message.body());
      received.add(request);
      message.reply(new JsonObject().put("v", 1).put("source", request.source()).put("titleId", request.titleId())
          .put("title", "Starfall Circus").put("coverId", "k1").put("groups", new JsonArray())
          .put("chapters", new JsonArray()
              .add(chapter("c1", "1", "en")).add(chapter("other-2", "2.0", "en"))
              .add(chapter("fr-1", "1", "fr")).add(chapter("c9", "3", "en"))));
    });

    HttpResponse<String> answer = get("/api/admin/titles/fixture/starfall");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonArray chapters = json(answer).getJsonArray("chapters");
    assertThat(chapters.stream().map(c -> ((JsonObject) c).getString("id") + "=" + ((JsonObject) c)
        .getBoolean("inLibrary"))).containsExactly("c1=true", "other-2=true", "fr-1=false", "c9=false");
    assertThat(json(answer).getString("cover")).isEqualTo("/api/admin/covers/fixture/k1");
    assertThat(((PreviewRequest) received.get(0)).titleId()).isEqualTo("starfall");
  }

  @Test
  void aTitleIdWithASlashReachesTheScraperWhole() throws Exception {
    scraper(Addresses.SCRAPER_TITLES_PREVIEW, message -> {
      PreviewRequest request = PreviewRequest.fromJson(message.body());
      received.add(request);
      message.reply(new JsonObject().put("v", 1).put("source", request.source()).put("titleId", request.titleId())
          .put("chapters", new JsonArray()));
    });

    HttpResponse<String> answer = get("/api/admin/titles/pill/1234%2Fstarfall-circus");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(((PreviewRequest) received.get(0)).titleId()).isEqualTo("1234/starfall-circus");
  }

  private static JsonObject chapter(String id, String number, String language) {
    return new JsonObject().put("id", id).put("number", number).put("title", null).put("language", language)
        .put("groupIds", new JsonArray()).put("publishedAt", null).put("downloadable", true).put("reason", null);
  }

  @Test
  void aCoverIsFetchedOnceThroughTheScraperThenServedFromTheReadersDiskCache() throws Exception {
    byte[] png = TestImages.png(7);
    scraper(Addresses.SCRAPER_COVERS_FETCH, message -> {
      received.add(CoverRequest.fromJson(message.body()));
      message.reply(Buffer.buffer(png), new DeliveryOptions().addHeader("content-type", "image/png"));
    });

    for (int i = 0; i < 2; i++) {
      HttpResponse<byte[]> answer = reader.bytes(reader.get("/api/admin/covers/mangadex/cov-1")
          .header("Authorization", "Bearer " + ReaderUnderTest.ADMIN_TOKEN));
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo(png);
      assertThat(answer.headers().firstValue("Content-Type")).hasValue("image/png");
      assertThat(answer.headers().firstValue("Cache-Control")).hasValue("private, max-age=86400");
      // the first answer is sent before the file is written: wait for it before asking again
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() ->
          Files.isDirectory(data.resolve("search-covers")) && Files.list(data.resolve("search-covers")).count() == 1);
    }
    assertThat(received).hasSize(1);
    assertThat(((CoverRequest) received.get(0)).coverId()).isEqualTo("cov-1");
  }

  @Test
  void aCoverThatIsNotAnImageIsA502AndIsNotKept() throws Exception {
    scraper(Addresses.SCRAPER_COVERS_FETCH, message -> message.reply(Buffer.buffer("<html>challenge</html>"),
        new DeliveryOptions().addHeader("content-type", "text/html")));

    HttpResponse<String> answer = get("/api/admin/covers/mangadex/cov-1");

    assertThat(answer.statusCode()).isEqualTo(502);
    assertThat(json(answer).getString("error")).isEqualTo("bad_image");
    assertThat(data.resolve("search-covers")).doesNotExist();
  }

  @Test
  void theScrapersRefusalsKeepTheirCodeWithTheStatusItMeans() throws Exception {
    scraper(Addresses.SCRAPER_COVERS_FETCH, message -> message.fail(ErrorCode.NOT_FOUND.code(), "unknown cover id"));
    scraper(Addresses.SCRAPER_TITLES_PREVIEW, message -> message.fail(ErrorCode.SOURCE_UNAVAILABLE.code(),
        "the circuit of mangadex is open"));

    HttpResponse<String> cover = get("/api/admin/covers/mangadex/nope");
    HttpResponse<String> preview = get("/api/admin/titles/mangadex/t-1");

    assertThat(cover.statusCode()).isEqualTo(404);
    assertThat(json(cover).getString("error")).isEqualTo("not_found");
    assertThat(preview.statusCode()).isEqualTo(503);
    assertThat(json(preview).getString("error")).isEqualTo("source_unavailable");
    assertThat(json(preview).getString("message")).contains("circuit");
  }

  @Test
  void withoutAScraperEveryFinderRouteAnswersScraperUnreachable() throws Exception {
    for (String path : List.of("/api/admin/sources", "/api/admin/search?q=starfall", "/api/admin/titles/m/t-1",
        "/api/admin/covers/m/c-1", "/api/admin/following")) {
      HttpResponse<String> answer = get(path);
      assertThat(answer.statusCode()).as(path).isEqualTo(503);
      assertThat(json(answer).getString("error")).as(path).isEqualTo("scraper_unreachable");
    }
  }

  @Test
  void followAndUnfollowGoToTheScraperAndAFollowThatIsNotABooleanIsRefused() throws Exception {
    scraper(Addresses.SCRAPER_FOLLOWS_SET, message -> {
      FollowRequest request = FollowRequest.fromJson(message.body());
      received.add(request);
      message.reply(new JsonObject().put("v", 1).put("titles", new JsonArray()));
    });
    scraper(Addresses.SCRAPER_FOLLOWS_LIST, message -> message.reply(new JsonObject().put("v", 1)
        .put("titles", new JsonArray().add(new JsonObject().put("source", "mangadex").put("titleId", "t-1")))));

    HttpResponse<String> follow = send("PUT", "/api/admin/following/mangadex/t-1",
        new JsonObject().put("follow", true).put("language", "EN"));
    HttpResponse<String> unfollow = send("PUT", "/api/admin/following/mangadex/t-1", new JsonObject().put("follow",
        false));
    HttpResponse<String> bad = send("PUT", "/api/admin/following/mangadex/t-1", new JsonObject().put("follow", "yes"));
    HttpResponse<String> badLanguage = send("PUT", "/api/admin/following/mangadex/t-1", new JsonObject()
        .put("follow", true).put("language", "english!"));
    HttpResponse<String> list = get("/api/admin/following");

    assertThat(follow.statusCode()).as(follow.body()).isEqualTo(200);
    assertThat(unfollow.statusCode()).isEqualTo(200);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(json(bad).getString("message")).contains("follow must be true or false");
    assertThat(badLanguage.statusCode()).isEqualTo(400);
    assertThat(received).hasSize(2);
    FollowRequest first = (FollowRequest) received.get(0);
    assertThat(first.follow()).isTrue();
    assertThat(first.language()).isEqualTo("en");
    assertThat(((FollowRequest) received.get(1)).follow()).isFalse();
    assertThat(json(list).getJsonArray("titles")).hasSize(1);
  }

  @Test
  void addingATitlePassesItsLanguageGroupPreferenceAndFollowToTheScraper() throws Exception {
    scraper(Addresses.SCRAPER_JOBS_ADD, message -> {
      received.add(AddTitleRequest.fromJson(message.body()));
      message.reply(new JsonObject().put("v", 1).put("job", new JsonObject().put("id", "j-1")).put("created", true));
    });

    HttpResponse<String> added = send("POST", "/api/admin/jobs", new JsonObject().put("source", "mangadex")
        .put("title", "t-1").put("autoConfirm", true).put("language", "fr")
        .put("preferredGroups", new JsonArray().add("g-2").add("g-1")).put("follow", true));
    HttpResponse<String> plain = send("POST", "/api/admin/jobs", new JsonObject().put("source", "mangadex")
        .put("title", "t-2"));

    assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
    assertThat(plain.statusCode()).as(plain.body()).isEqualTo(201);
    AddTitleRequest first = (AddTitleRequest) received.get(0);
    assertThat(first.language()).isEqualTo("fr");
    assertThat(first.preferredGroups()).containsExactly("g-2", "g-1");
    assertThat(first.follow()).isTrue();
    AddTitleRequest second = (AddTitleRequest) received.get(1);
    assertThat(second.language()).isEqualTo("en");
    assertThat(second.preferredGroups()).isEmpty();
    assertThat(second.follow()).isFalse();
  }

  @Test
  void aReaderAccountCannotSearch() throws Exception {
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "rita", "a-long-reader-password");
    ReaderUnderTest.Session rita = reader.login("rita", "a-long-reader-password");

    HttpResponse<String> answer = reader.text(ReaderUnderTest.as(rita, reader.get("/api/admin/search?q=starfall")));

    assertThat(answer.statusCode()).isEqualTo(403);
  }
}
