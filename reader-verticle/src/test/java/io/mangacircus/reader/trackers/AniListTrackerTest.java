package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The AniList client against the AniList fake: what it sends, what it reads, and how it names each failure. */
class AniListTrackerTest {

  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  private static final String REDIRECT = "https://reader.example/trackers/anilist/callback";

  private final AniListFake fake = new AniListFake();
  private Vertx vertx;
  private WebClient web;
  private AniListTracker tracker;
  private TrackerTokens tokens;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    web = WebClient.create(vertx);
    tracker = new AniListTracker(web, fake.config(), InstantSource.fixed(NOW));
    tokens = new TrackerTokens(new Secret(fake.token()), null, NOW.plus(Duration.ofDays(300)), "7", "reader");
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
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> await(future));
    assertThat(thrown).isInstanceOf(ExecutionException.class);
    assertThat(thrown.getCause()).isInstanceOf(TrackerFailure.class);
    return (TrackerFailure) thrown.getCause();
  }

  @Test
  void authorizeUrlAsksForACodeAndCarriesTheState() {
    URI url = URI.create(tracker.authorizeUrl("st ate/1", "ignored", REDIRECT));

    assertThat(url.toString()).startsWith(fake.authUrl() + "/authorize?");
    assertThat(url.getRawQuery()).contains("client_id=" + AniListFake.CLIENT_ID, "response_type=code",
        "state=st+ate%2F1", "redirect_uri=https%3A%2F%2Freader.example%2Ftrackers%2Fanilist%2Fcallback");
  }

  @Test
  void codeExchangeSendsTheDocumentedFieldsAndYieldsAYearLongTokenAndTheViewer() throws Exception {
    fake.signInAccepts("the-code", "issued-jwt").viewer(5150, "Ayase");

    TrackerTokens signedIn = await(tracker.exchangeCode("the-code", "ignored", REDIRECT));

    assertThat(signedIn.access().reveal()).isEqualTo("issued-jwt");
    assertThat(signedIn.refresh()).isNull();
    assertThat(signedIn.expiresAt()).isEqualTo(NOW.plusSeconds(31536000));
    assertThat(signedIn.accountId()).isEqualTo("5150");
    assertThat(signedIn.accountName()).isEqualTo("Ayase");
    assertThat(fake.lastTokenRequest()).isEqualTo(new JsonObject().put("grant_type", "authorization_code")
        .put("client_id", AniListFake.CLIENT_ID).put("client_secret", AniListFake.CLIENT_SECRET)
        .put("redirect_uri", REDIRECT).put("code", "the-code"));
  }

  @Test
  void aRefusedCodeIsARefusal() {
    fake.signInAccepts("the-code", "issued-jwt");

    assertThat(failure(tracker.exchangeCode("forged", "ignored", REDIRECT)).kind())
        .isEqualTo(TrackerFailure.Kind.REFUSED);
  }

  @Test
  void refreshIsAlwaysASignInAgain() {
    TrackerFailure failure = failure(tracker.refresh(tokens));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).contains("sign in again");
    assertThat(fake.requestCount()).isZero();
  }

  @Test
  void searchMapsEveryTitleChaptersYearCoverAndPage() throws Exception {
    fake.searchFinds(30013, "One Piece", "One Piece EN", 1100, 1997).searchFinds(30002, "Berserk", null, null, 1989);

    List<TrackerCandidate> found = await(tracker.search(tokens, "one piece"));

    assertThat(found).hasSize(2);
    TrackerCandidate first = found.get(0);
    assertThat(first.remoteId()).isEqualTo("30013");
    assertThat(first.title()).isEqualTo("One Piece");
    assertThat(first.alternativeTitles()).containsExactly("One Piece EN", "One Piece (synonym)");
    assertThat(first.totalChapters()).isEqualTo(1100);
    assertThat(first.year()).isEqualTo(1997);
    assertThat(first.format()).isEqualTo("MANGA");
    assertThat(first.coverUrl()).endsWith("/30013.jpg");
    assertThat(first.url()).isEqualTo("https://anilist.co/manga/30013");
    assertThat(found.get(1).totalChapters()).isNull();
  }

  @Test
  void aListedEntryReadsItsIdProgressStatusAndChapters() throws Exception {
    fake.listEntry(30013, 42, "PAUSED", 1100);

    RemoteEntry entry = await(tracker.entry(tokens, "30013"));

    assertThat(entry.listed()).isTrue();
    assertThat(entry.listEntryId()).isEqualTo("930013");
    assertThat(entry.entry()).isEqualTo(new TrackerEntry(42, TrackerStatus.ON_HOLD, 1100));
  }

  @Test
  void aSeriesNotOnTheListIsNotListed() throws Exception {
    fake.notListed(30013, null);

    RemoteEntry entry = await(tracker.entry(tokens, "30013"));

    assertThat(entry.listed()).isFalse();
    assertThat(entry.listEntryId()).isNull();
    assertThat(entry.entry()).isEqualTo(TrackerEntry.notListed(null));
  }

  @Test
  void anUnknownSeriesIsARefusal() {
    fake.noSuchMedia(99);

    assertThat(failure(tracker.entry(tokens, "99")).kind()).isEqualTo(TrackerFailure.Kind.REFUSED);
  }

  @Test
  void saveSendsOnlyTheSeriesProgressAndStatus() throws Exception {
    fake.acceptsSaves();
    RemoteEntry current = new RemoteEntry("30013", null, false, TrackerEntry.notListed(null), "");

    await(tracker.save(tokens, current, 3, TrackerStatus.READING));
    await(tracker.save(tokens, current, 4, TrackerStatus.REREADING));

    assertThat(fake.savedProgress(30013)).containsExactly(3, 4);
    assertThat(fake.savedVariables()).containsExactly(
        new JsonObject().put("mediaId", 30013).put("progress", 3).put("status", "CURRENT"),
        new JsonObject().put("mediaId", 30013).put("progress", 4).put("status", "REPEATING"));
    assertThat(fake.events().get(0).getRequest().getBodyAsString()).doesNotContain("score", "startedAt",
        "completedAt", "private", "notes");
  }

  @Test
  void tooManyRequestsIsARateLimitForTheRetryAfterGiven() {
    fake.rateLimited(30);

    TrackerFailure failure = failure(tracker.entry(tokens, "30013"));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.RATE_LIMITED);
    assertThat(failure.retryAfter()).contains(Duration.ofSeconds(30));
  }

  @Test
  void aRevokedTokenIsASignInAgainNamingNoToken() {
    fake.revoked();

    TrackerFailure failure = failure(tracker.save(tokens, new RemoteEntry("1", null, false,
        TrackerEntry.notListed(null), ""), 3, TrackerStatus.READING));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain(fake.token());
  }

  @Test
  void aTokenAniListDoesNotKnowIsASignInAgainNamingNoToken() {
    fake.listEntry(30013, 1, "CURRENT", null);
    TrackerTokens stale = new TrackerTokens(new Secret("stale-jwt"), null, null, "7", "reader");

    TrackerFailure failure = failure(tracker.entry(stale, "30013"));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain("stale-jwt");
  }

  @Test
  void aTrackerDownIsUnavailable() {
    fake.down();

    assertThat(failure(tracker.search(tokens, "berserk")).kind()).isEqualTo(TrackerFailure.Kind.UNAVAILABLE);
  }

  @Test
  void noAnswerIsUnavailable() {
    fake.close();

    assertThat(failure(tracker.entry(tokens, "30013")).kind()).isEqualTo(TrackerFailure.Kind.UNAVAILABLE);
  }

  @Test
  void statusesMapBothWays() {
    for (TrackerStatus status : TrackerStatus.values()) {
      assertThat(AniListTracker.status(AniListTracker.apiStatus(status))).isEqualTo(status);
    }
    assertThatThrownBy(() -> await(tracker.logIn("u", new Secret("p")))).hasCauseInstanceOf(TrackerFailure.class);
  }
}
