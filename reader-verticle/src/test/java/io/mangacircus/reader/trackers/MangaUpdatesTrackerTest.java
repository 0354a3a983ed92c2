package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The MangaUpdates client against a WireMock MangaUpdates: what it sends, what it reads, and how it fails. */
class MangaUpdatesTrackerTest {

  private static final long SERIES = 55099564912L;
  private static final String PASSWORD = "correct horse battery";

  private final InstantSource clock = InstantSource.fixed(Instant.parse("2026-03-01T10:00:00Z"));
  private MangaUpdatesFake fake;
  private Vertx vertx;
  private WebClient web;
  private MangaUpdatesTracker tracker;
  private TrackerTokens tokens;

  @BeforeEach
  void start() {
    fake = new MangaUpdatesFake();
    vertx = Vertx.vertx();
    web = WebClient.create(vertx);
    tracker = new MangaUpdatesTracker(web, fake.config(), clock);
    tokens = fake.tokens(42, "reader");
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

  private RemoteEntry notListed() {
    return new RemoteEntry(String.valueOf(SERIES), null, false, TrackerEntry.notListed(null), "");
  }

  private RemoteEntry listed() {
    return new RemoteEntry(String.valueOf(SERIES), String.valueOf(SERIES), true,
        new TrackerEntry(2, TrackerStatus.READING, null), "");
  }

  @Test
  void logInSendsTheNameAndPasswordAndKeepsTheSessionTokenAndAccount() throws Exception {
    fake.logInAccepts("reader", PASSWORD, "mu-session-new", 42).profile(42, "Reader Name");

    TrackerTokens signedIn = await(tracker.logIn("reader", new Secret(PASSWORD)));

    assertThat(signedIn.access().reveal()).isEqualTo("mu-session-new");
    assertThat(signedIn.refresh()).as("MangaUpdates has no renewal").isNull();
    assertThat(signedIn.expiresAt()).isNull();
    assertThat(signedIn.accountId()).isEqualTo("42");
    assertThat(signedIn.accountName()).isEqualTo("Reader Name");
    assertThat(signedIn.toString()).doesNotContain("mu-session-new");
    assertThat(fake.requests().get(1).getHeader("Authorization")).isEqualTo("Bearer mu-session-new");
  }

  @Test
  void aRefusedLogInAsksToSignInAgainWithoutRepeatingThePassword() {
    fake.logInAccepts("reader", PASSWORD, "mu-session-new", 42).profile(42, "Reader Name");

    TrackerFailure failure = failure(tracker.logIn("reader", new Secret("wrong password")));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain("wrong password").doesNotContain(PASSWORD);
  }

  @Test
  void refreshAsksToSignInAgainWithoutContactingMangaUpdates() {
    TrackerFailure failure = failure(tracker.refresh(tokens));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(fake.requestCount()).isZero();
  }

  @Test
  void searchSendsTheQueryWithoutNovelsAndDecodesTitles() throws Exception {
    fake.searchFinds("kimi", new MangaUpdatesFake.Series(SERIES, "Kimi &amp; &quot;Boku&quot; &#039;s Caf&eacute;",
        "2005", "Manga"));

    List<TrackerCandidate> found = await(tracker.search(tokens, "kimi"));

    assertThat(found).hasSize(1);
    TrackerCandidate candidate = found.get(0);
    assertThat(candidate.remoteId()).isEqualTo(String.valueOf(SERIES));
    assertThat(candidate.title()).isEqualTo("Kimi & \"Boku\" 's Café");
    assertThat(candidate.year()).isEqualTo(2005);
    assertThat(candidate.format()).isEqualTo("Manga");
    assertThat(candidate.totalChapters()).as("MangaUpdates gives no chapter total").isNull();
    assertThat(candidate.coverUrl()).isEqualTo("https://cdn.mangaupdates.com/image/i" + SERIES + ".jpg");
    assertThat(candidate.url()).isEqualTo("https://www.mangaupdates.com/series/pb8uwds");
    JsonObject sent = new JsonObject(fake.requests().get(0).getBodyAsString());
    assertThat(sent).isEqualTo(new JsonObject().put("search", "kimi")
        .put("filter_types", new JsonArray().add("drama cd").add("novel")));
  }

  @Test
  void entryReadsTheListAsStatusAndTheChapter() throws Exception {
    fake.listEntry(SERIES, 12, MangaUpdatesTracker.ON_HOLD_LIST);

    RemoteEntry entry = await(tracker.entry(tokens, String.valueOf(SERIES)));

    assertThat(entry.listed()).isTrue();
    assertThat(entry.entry()).isEqualTo(new TrackerEntry(12, TrackerStatus.ON_HOLD, null));
    assertThat(entry.title()).isEqualTo("Series " + SERIES);
  }

  @Test
  void aSeriesOnNoListIsNotListed() throws Exception {
    fake.notListed(SERIES);

    RemoteEntry entry = await(tracker.entry(tokens, String.valueOf(SERIES)));

    assertThat(entry.listed()).isFalse();
    assertThat(entry.listEntryId()).isNull();
    assertThat(entry.entry().progress()).isZero();
  }

  @Test
  void savingASeriesOnNoListAddsItWithOnlyListAndChapter() throws Exception {
    fake.acceptsSaves();

    await(tracker.save(tokens, notListed(), 3, TrackerStatus.READING));

    assertThat(fake.savedItems()).containsExactly(new JsonObject()
        .put("series", new JsonObject().put("id", SERIES)).put("list_id", 0)
        .put("status", new JsonObject().put("chapter", 3)).put("path", "/v1/lists/series"));
    assertThat(fake.savedProgress(SERIES)).containsExactly(3);
  }

  @Test
  void savingAListedSeriesUpdatesItsListAndChapter() throws Exception {
    fake.acceptsSaves();

    await(tracker.save(tokens, listed(), 20, TrackerStatus.COMPLETED));

    assertThat(fake.savedItems()).containsExactly(new JsonObject()
        .put("series", new JsonObject().put("id", SERIES)).put("list_id", 2)
        .put("status", new JsonObject().put("chapter", 20)).put("path", "/v1/lists/series/update"));
  }

  @Test
  void aMangaDexBase36IdIsTheSeriesIdAndALegacyIdIsLinkedBySearch() throws Exception {
    assertThat(await(tracker.remoteId(tokens, "pb8uwds"))).isEqualTo(String.valueOf(SERIES));

    TrackerFailure legacy = failure(tracker.remoteId(tokens, "6521"));

    assertThat(legacy.kind()).isEqualTo(TrackerFailure.Kind.REFUSED);
    assertThat(legacy.getMessage()).contains("link it by search");
    assertThat(fake.requestCount()).isZero();
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
  void aRevokedSessionAsksToSignInAgainWithoutShowingTheToken() {
    fake.revoked();

    TrackerFailure failure = failure(tracker.entry(tokens, String.valueOf(SERIES)));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain(MangaUpdatesFake.TOKEN);
  }

  @Test
  void aServerErrorIsTheTrackerBeingDown() {
    fake.down();

    TrackerFailure failure = failure(tracker.save(tokens, notListed(), 4, TrackerStatus.READING));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.UNAVAILABLE);
    assertThat(fake.requestCount()).isEqualTo(1);
  }
}
