package io.mangacircus.reader.trackers;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static io.mangacircus.reader.ReaderUnderTest.basic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.TrackersConfig;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readings reaching the trackers through the real reader, against the trackers' fakes: a chapter finished in the
 * browser reader, a last page streamed over OPDS, a series linked from its source's AniList id; a tracker ahead of us
 * is not lowered and its progress is offered; a refused sign-in turns "needs sign-in again" and the update waits for
 * the next sign-in.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TrackerUpdatesRoutesTest {

  private static final Duration DELIVERED = Duration.ofSeconds(20);

  @TempDir
  static Path data;

  private final AniListFake anilist = new AniListFake();
  private final MyAnimeListFake mal = new MyAnimeListFake();
  private final MangaUpdatesFake mangaupdates = new MangaUpdatesFake();
  private ReaderUnderTest reader;
  private ReaderUnderTest.Session ayako;
  private ReaderUnderTest.Session bruno;
  private ReaderUnderTest.Session chiara;

  @BeforeAll
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    Instant at = Instant.parse("2026-01-02T03:04:05Z");
    for (int chapter = 1; chapter <= 5; chapter++) {
      library.chapter("starfall", "Starfall", chapter, 2, at);
      library.chapter("moonlit", "Moonlit", chapter, 2, at);
      library.chapter("comet", "Comet", chapter, 2, at);
    }
    // As the scraper keeps a MangaDex title's links: AniList's id of the series.
    new SourceSeriesMetadata(1, "mangadex", "5a1c0e2b-7c3d-4e8f-9a0b-1c2d3e4f5a01", "Starfall", null, List.of(),
        List.of(), List.of(), "ongoing", 2019, "ja",
        List.of(new SourceSeriesMetadata.Link("anilist", "30013", "https://anilist.co/manga/30013")))
        .write(library.library().resolve("starfall"));
    anilist.signInAccepts("ayako-code", "anilist-token-of-ayako").viewer(101, "ayako-on-anilist")
        .notListed(30013, 12).acceptsSaves();
    mal.signInAccepts("chiara-code", "mal-token-of-chiara").viewer(303, "chiara-on-mal").notListed(2, 0)
        .notListed(7, 0).acceptsSaves();
    mangaupdates.logInAccepts("bruno-mu", "bruno's password", "mu-session-of-bruno", 77).profile(77, "bruno-on-mu")
        .listEntry(55, 10, 0).acceptsSaves();
    reader = ReaderUnderTest.withTrackers(data, new TrackersConfig("https://manga.example.org", fast(anilist.config()),
        fast(mal.config()), fast(mangaupdates.config()), null));
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    for (String name : List.of("ayako", "bruno", "chiara")) {
      reader.createReader(admin, name, name + "-password-1");
    }
    ayako = reader.login("ayako", "ayako-password-1");
    bruno = reader.login("bruno", "bruno-password-1");
    chiara = reader.login("chiara", "chiara-password-1");
    signInWithOAuth(ayako, "anilist", "ayako-code");
    signInWithOAuth(chiara, "myanimelist", "chiara-code");
    HttpResponse<String> login = call(bruno, "POST", "/api/me/trackers/mangaupdates/login",
        new JsonObject().put("username", "bruno-mu").put("password", "bruno's password").encode());
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
  }

  /** A tracker paced at 600 requests a minute, so that the tests wait for the reader, not for the pace. */
  static io.mangacircus.reader.TrackerConfig fast(io.mangacircus.reader.TrackerConfig tracker) {
    return new io.mangacircus.reader.TrackerConfig(tracker.enabled(), tracker.clientId(), tracker.clientSecret(),
        tracker.apiUrl(), tracker.authUrl(), 600);
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
    anilist.close();
    mal.close();
    mangaupdates.close();
  }

  private HttpResponse<String> call(ReaderUnderTest.Session session, String method, String path, String body)
      throws Exception {
    return reader.text(as(session, reader.request(method, path, body)));
  }

  private void signInWithOAuth(ReaderUnderTest.Session session, String tracker, String code) throws Exception {
    TrackerSignInRoutesTest.SignIn started = TrackerSignInRoutesTest.authorize(reader, session, tracker);
    HttpResponse<String> back = TrackerSignInRoutesTest.callback(reader, tracker, code, started.state(),
        started.cookie());
    assertThat(back.headers().firstValue("Location")).as(back.body()).hasValue("/profile.html?tracker=" + tracker
        + "&signedIn=1");
  }

  /** The browser reader's save of a position; the last page (2) finishes the chapter. */
  private void read(ReaderUnderTest.Session session, String series, int chapter) throws Exception {
    HttpResponse<String> saved = call(session, "PUT", "/api/progress/" + series, new JsonObject()
        .put("chapter", String.format("chapter-%04d", chapter)).put("page", 2).encode());
    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);
  }

  private void link(ReaderUnderTest.Session session, String series, String tracker, String remoteId)
      throws Exception {
    HttpResponse<String> linked = call(session, "PUT", "/api/series/" + series + "/trackers/" + tracker,
        new JsonObject().put("remoteId", remoteId).encode());
    assertThat(linked.statusCode()).as(linked.body()).isEqualTo(200);
    // The link's own first sync (the tracker read, nothing of ours to send) is over before the reading under test.
    await().atMost(DELIVERED).until(() -> {
      JsonObject now = link(session, series, tracker);
      return now.getString("lastSyncAt") != null && !now.getBoolean("pending");
    });
  }

  private JsonObject link(ReaderUnderTest.Session session, String series, String tracker) throws Exception {
    JsonObject answer = new JsonObject(call(session, "GET", "/api/series/" + series + "/trackers", null).body());
    return answer.getJsonArray("trackers").stream().map(JsonObject.class::cast)
        .filter(t -> t.getString("id").equals(tracker)).findFirst().orElseThrow().getJsonObject("link");
  }

  private JsonObject account(ReaderUnderTest.Session session, String tracker) throws Exception {
    return new JsonObject(call(session, "GET", "/api/me/trackers", null).body()).getJsonArray("trackers").stream()
        .map(JsonObject.class::cast).filter(t -> t.getString("id").equals(tracker)).findFirst().orElseThrow();
  }

  @Test
  void chapterThreeFinishedInTheBrowserReachesAniListOnceAsProgressThreeThroughTheSourcesLink() throws Exception {
    read(ayako, "starfall", 3);

    await().atMost(DELIVERED).until(() -> anilist.savedProgress(30013).equals(List.of(3)));
    JsonObject link = link(ayako, "starfall", "anilist");
    assertThat(link.getBoolean("automatic")).isTrue();
    assertThat(link.getString("remoteId")).isEqualTo("30013");
    await().atMost(DELIVERED).until(() -> link(ayako, "starfall", "anilist").getString("lastPushAt") != null
        && !link(ayako, "starfall", "anilist").getBoolean("pending"));
    assertThat(anilist.savedProgress(30013)).as("one update").containsExactly(3);
  }

  @Test
  void theLastPageOfChapterFourStreamedOverOpdsReachesMyAnimeListAsProgressFour() throws Exception {
    link(chiara, "moonlit", "myanimelist", "2");
    String app = reader.createAppPassword(chiara, "Panels", "read+progress").getString("password");

    // Page streaming counts pages from 0 (OPDS-PSE's {pageNumber}): 1 is the second and last page.
    HttpResponse<byte[]> page = reader.bytes(basic("chiara", app,
        reader.get("/opds/v1.2/series/moonlit/chapters/chapter-0004/pages/1")));

    assertThat(page.statusCode()).isEqualTo(200);
    await().atMost(DELIVERED).until(() -> mal.savedProgress(2).equals(List.of(4)));
  }

  @Test
  void aTrackerAheadOfUsIsNotLoweredAndItsProgressIsOfferedToTake() throws Exception {
    link(bruno, "moonlit", "mangaupdates", "55");
    String linkedSync = link(bruno, "moonlit", "mangaupdates").getString("lastSyncAt");
    read(bruno, "moonlit", 4);

    await().atMost(DELIVERED).until(() -> {
      JsonObject now = link(bruno, "moonlit", "mangaupdates");
      return !now.getString("lastSyncAt").equals(linkedSync) && !now.getBoolean("pending");
    });
    assertThat(mangaupdates.savedProgress(55)).as("never lowered from 10 to 4").isEmpty();
    assertThat(link(bruno, "moonlit", "mangaupdates").getInteger("pullOffered")).isEqualTo(10);

    HttpResponse<String> taken = call(bruno, "POST", "/api/series/moonlit/trackers/mangaupdates/pull", "{}");

    assertThat(taken.statusCode()).as(taken.body()).isEqualTo(200);
    assertThat(new JsonObject(taken.body()).getInteger("marked")).isEqualTo(5);
    assertThat(link(bruno, "moonlit", "mangaupdates").getValue("pullOffered")).isNull();
    JsonObject series = new JsonObject(call(bruno, "GET", "/api/series/moonlit", null).body());
    assertThat(series.getJsonArray("chapters").stream().map(JsonObject.class::cast)
        .allMatch(c -> "read".equals(c.getString("state")))).as(series.encode()).isTrue();
  }

  @Test
  void aRefusedSignInTurnsNeedsSignInAgainAndTheUpdateGoesOutAfterTheNextSignIn() throws Exception {
    link(chiara, "comet", "myanimelist", "7");
    mal.revoked();
    try {
      read(chiara, "comet", 2);

      await().atMost(DELIVERED).until(() -> account(chiara, "myanimelist").getBoolean("needsSignIn"));
      assertThat(link(chiara, "comet", "myanimelist").getBoolean("pending")).as("nothing lost").isTrue();
      assertThat(mal.savedProgress(7)).isEmpty();
    } finally {
      mal.back();
    }
    mal.signInAccepts("chiara-code-2", "mal-token-of-chiara");
    signInWithOAuth(chiara, "myanimelist", "chiara-code-2");

    await().atMost(DELIVERED).until(() -> mal.savedProgress(7).equals(List.of(2)));
    assertThat(account(chiara, "myanimelist").getBoolean("needsSignIn")).isFalse();
  }
}
