package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Kitsu client against a WireMock Kitsu: its OAuth2 password grant, JSON:API reads and writes, and failures. */
class KitsuTrackerTest {

  private static final String USER = "1234";
  private static final String PASSWORD = "correct horse battery";
  private static final KitsuFake.Manga MANGA = new KitsuFake.Manga("11", "kimi-ni-todoke", "Kimi ni Todoke",
      Map.of("en", "From Me to You", "en_jp", "Kimi ni Todoke"), 123, "manga", "2005-05-25");

  private final InstantSource clock = InstantSource.fixed(Instant.parse("2026-03-01T10:00:00Z"));
  private KitsuFake fake;
  private Vertx vertx;
  private WebClient web;
  private KitsuTracker tracker;
  private TrackerTokens tokens;

  @BeforeEach
  void start() {
    fake = new KitsuFake();
    vertx = Vertx.vertx();
    web = WebClient.create(vertx);
    tracker = new KitsuTracker(web, fake.config(), clock);
    tokens = fake.tokens(USER, "reader");
  }

  @AfterEach
  void stop() throws Exception {
    web.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    fake.close();
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static TrackerFailure failure(Future<?> future) {
    ExecutionException e = catchThrowableOfType(ExecutionException.class,
        () -> future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertThat(e).as("the call fails").isNotNull();
    assertThat(e.getCause()).isInstanceOf(TrackerFailure.class);
    return (TrackerFailure) e.getCause();
  }

  private static RemoteEntry notListed() {
    return new RemoteEntry(MANGA.id(), null, false, TrackerEntry.notListed(null), "");
  }

  private static RemoteEntry listed() {
    return new RemoteEntry(MANGA.id(), "777", true, new TrackerEntry(2, TrackerStatus.READING, 123), "");
  }

  private JsonObject saved() {
    List<JsonObject> saved = fake.savedData();
    assertThat(saved).hasSize(1);
    return saved.get(0);
  }

  @Test
  void logInUsesThePasswordGrantAndReadsTheSelfUser() throws Exception {
    fake.logInAccepts("reader", PASSWORD, "kitsu-access-new").self(USER, "Reader Name");

    TrackerTokens signedIn = await(tracker.logIn("reader", new Secret(PASSWORD)));

    assertThat(signedIn.access().reveal()).isEqualTo("kitsu-access-new");
    assertThat(signedIn.refresh().reveal()).isEqualTo(KitsuFake.REFRESH);
    assertThat(signedIn.expiresAt()).isEqualTo(Instant.ofEpochSecond(KitsuFake.CREATED_AT + KitsuFake.EXPIRES_IN));
    assertThat(signedIn.accountId()).isEqualTo(USER);
    assertThat(signedIn.accountName()).isEqualTo("Reader Name");
    assertThat(signedIn.toString()).doesNotContain("kitsu-access-new").doesNotContain(KitsuFake.REFRESH);
  }

  @Test
  void aRefusedPasswordFailsWithoutRepeatingIt() {
    fake.logInAccepts("reader", PASSWORD, "kitsu-access-new").self(USER, "Reader Name");

    TrackerFailure failure = failure(tracker.logIn("reader", new Secret("wrong password")));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.REFUSED);
    assertThat(failure.getMessage()).doesNotContain("wrong password").doesNotContain(PASSWORD);
  }

  @Test
  void refreshRenewsBothTokensForTheSameAccount() throws Exception {
    fake.refreshAccepts(KitsuFake.REFRESH, "kitsu-access-2", "kitsu-refresh-2", KitsuFake.CREATED_AT + 100);

    TrackerTokens renewed = await(tracker.refresh(tokens));

    assertThat(renewed.access().reveal()).isEqualTo("kitsu-access-2");
    assertThat(renewed.refresh().reveal()).isEqualTo("kitsu-refresh-2");
    assertThat(renewed.expiresAt()).isEqualTo(Instant.ofEpochSecond(KitsuFake.CREATED_AT + 100
        + KitsuFake.EXPIRES_IN));
    assertThat(renewed.accountId()).isEqualTo(USER);
    assertThat(renewed.accountName()).isEqualTo("reader");
  }

  @Test
  void aRefusedRefreshAsksToSignInAgain() {
    fake.revoked();

    TrackerFailure failure = failure(tracker.refresh(tokens));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain(KitsuFake.REFRESH);
  }

  @Test
  void searchReadsTitlesAlternativesChaptersAndYear() throws Exception {
    fake.searchFinds("kimi", MANGA);

    List<TrackerCandidate> found = await(tracker.search(tokens, "kimi"));

    assertThat(found).containsExactly(new TrackerCandidate("11", "Kimi ni Todoke", List.of("From Me to You"),
        "manga", 2005, 123, "https://media.kitsu.app/manga/11/small.jpg", "https://kitsu.app/manga/kimi-ni-todoke"));
    assertThat(fake.requests().get(0).queryParameter("page[limit]").firstValue()).isEqualTo("20");
  }

  @Test
  void aSlugIsLookedUpAndAnIdIsKept() throws Exception {
    fake.slug("kimi-ni-todoke", MANGA).slug("no-such-manga", null);

    assertThat(await(tracker.remoteId(tokens, "kimi-ni-todoke"))).isEqualTo("11");
    assertThat(await(tracker.remoteId(tokens, "17709"))).isEqualTo("17709");
    assertThat(failure(tracker.remoteId(tokens, "no-such-manga")).kind()).isEqualTo(TrackerFailure.Kind.REFUSED);
    assertThat(fake.requestCount()).as("an id needs no lookup").isEqualTo(2);
  }

  @Test
  void entryReadsProgressStatusAndTheMangasChapterCount() throws Exception {
    fake.libraryEntry("777", USER, MANGA, 12, "on_hold", false);

    RemoteEntry entry = await(tracker.entry(tokens, MANGA.id()));

    assertThat(entry).isEqualTo(new RemoteEntry("11", "777", true, new TrackerEntry(12, TrackerStatus.ON_HOLD, 123),
        "Kimi ni Todoke"));
  }

  @Test
  void aCurrentEntryBeingReconsumedIsRereading() throws Exception {
    fake.libraryEntry("777", USER, MANGA, 5, "current", true);

    assertThat(await(tracker.entry(tokens, MANGA.id())).entry().status()).isEqualTo(TrackerStatus.REREADING);
  }

  @Test
  void aMangaOutsideTheLibraryIsNotListed() throws Exception {
    fake.notListed(MANGA.id(), USER);

    RemoteEntry entry = await(tracker.entry(tokens, MANGA.id()));

    assertThat(entry.listed()).isFalse();
    assertThat(entry.listEntryId()).isNull();
  }

  @Test
  void savingAMangaOutsideTheLibraryCreatesAnEntryWithOnlyStatusAndProgress() throws Exception {
    fake.acceptsSaves();

    await(tracker.save(tokens, notListed(), 3, TrackerStatus.READING));

    assertThat(saved()).isEqualTo(new JsonObject("""
        {"type":"libraryEntries","attributes":{"status":"current","progress":3},
         "relationships":{"user":{"data":{"type":"users","id":"1234"}},"media":{"data":{"type":"manga","id":"11"}}},
         "method":"POST"}"""));
    assertThat(fake.savedProgress(MANGA.id())).containsExactly(3);
  }

  @Test
  void savingAListedMangaPatchesOnlyStatusAndProgress() throws Exception {
    fake.libraryEntry("777", USER, MANGA, 2, "current", false).acceptsSaves();

    await(tracker.save(tokens, listed(), 20, TrackerStatus.COMPLETED));

    assertThat(saved()).isEqualTo(new JsonObject("""
        {"type":"libraryEntries","id":"777","attributes":{"status":"completed","progress":20},"method":"PATCH"}"""));
    assertThat(fake.savedProgress(MANGA.id())).containsExactly(20);
  }

  @Test
  void rereadingIsSavedAsCurrentAndReconsuming() throws Exception {
    fake.acceptsSaves();

    await(tracker.save(tokens, listed(), 4, TrackerStatus.REREADING));

    assertThat(saved().getJsonObject("attributes")).isEqualTo(new JsonObject()
        .put("status", "current").put("progress", 4).put("reconsuming", true));
  }

  @Test
  void a429IsAPauseOfItsRetryAfter() {
    fake.rateLimited(30);

    TrackerFailure failure = failure(tracker.save(tokens, listed(), 4, TrackerStatus.READING));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.RATE_LIMITED);
    assertThat(failure.retryAfter()).contains(Duration.ofSeconds(30));
    assertThat(fake.requestCount()).as("one request, no retry").isEqualTo(1);
  }

  @Test
  void aRevokedTokenAsksToSignInAgainWithoutShowingIt() {
    fake.revoked();

    TrackerFailure failure = failure(tracker.entry(tokens, MANGA.id()));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain(KitsuFake.ACCESS);
  }

  @Test
  void aServerErrorIsTheTrackerBeingDown() {
    fake.down();

    TrackerFailure failure = failure(tracker.search(tokens, "kimi"));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.UNAVAILABLE);
  }
}
