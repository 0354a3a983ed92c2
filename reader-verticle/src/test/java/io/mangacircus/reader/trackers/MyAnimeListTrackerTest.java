package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
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

/** The MyAnimeList client against the MyAnimeList fake: what it sends, what it reads, and how it names failures. */
class MyAnimeListTrackerTest {

  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  private static final String REDIRECT = "https://reader.example/trackers/myanimelist/callback";
  private static final String VERIFIER = "v3r1f13r-0123456789-abcdefghijklmnopqrstuvwxyz_ABC";

  private final MyAnimeListFake fake = new MyAnimeListFake();
  private Vertx vertx;
  private WebClient web;
  private MyAnimeListTracker tracker;
  private TrackerTokens tokens;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    web = WebClient.create(vertx);
    tracker = new MyAnimeListTracker(web, fake.config(), InstantSource.fixed(NOW));
    tokens = new TrackerTokens(new Secret(fake.token()), new Secret("old-refresh"), NOW.plusSeconds(600), "77",
        "reader");
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

  private static RemoteEntry notListed(String id) {
    return new RemoteEntry(id, null, false, TrackerEntry.notListed(null), "");
  }

  @Test
  void authorizeUrlCarriesTheStateAndTheVerifierAsAPlainChallenge() {
    URI url = URI.create(tracker.authorizeUrl("st4te", VERIFIER, REDIRECT));

    assertThat(url.toString()).startsWith(fake.authUrl() + "/authorize?");
    assertThat(url.getRawQuery()).contains("response_type=code", "client_id=" + MyAnimeListFake.CLIENT_ID,
        "state=st4te", "redirect_uri=https%3A%2F%2Freader.example%2Ftrackers%2Fmyanimelist%2Fcallback",
        "code_challenge=" + VERIFIER, "code_challenge_method=plain");
  }

  @Test
  void codeExchangeSendsTheDocumentedFieldsAndYieldsTokensAndTheAccount() throws Exception {
    fake.signInAccepts("the-code", "issued-token").viewer(1234, "Ayase");

    TrackerTokens signedIn = await(tracker.exchangeCode("the-code", VERIFIER, REDIRECT));

    assertThat(signedIn.access().reveal()).isEqualTo("issued-token");
    assertThat(signedIn.refresh().reveal()).isEqualTo("issued-token-refresh");
    assertThat(signedIn.expiresAt()).isEqualTo(NOW.plusSeconds(3600));
    assertThat(signedIn.accountId()).isEqualTo("1234");
    assertThat(signedIn.accountName()).isEqualTo("Ayase");
    assertThat(fake.lastTokenRequest()).isEqualTo(Map.of("client_id", MyAnimeListFake.CLIENT_ID,
        "client_secret", MyAnimeListFake.CLIENT_SECRET, "grant_type", "authorization_code", "code", "the-code",
        "redirect_uri", REDIRECT, "code_verifier", VERIFIER));
  }

  @Test
  void refreshRenewsBothTokensForTheSameAccount() throws Exception {
    fake.refreshAccepts("old-refresh", "new-token");

    TrackerTokens renewed = await(tracker.refresh(tokens));

    assertThat(renewed.access().reveal()).isEqualTo("new-token");
    assertThat(renewed.refresh().reveal()).isEqualTo("new-token-refresh");
    assertThat(renewed.expiresAt()).isEqualTo(NOW.plusSeconds(3600));
    assertThat(renewed.accountId()).isEqualTo("77");
    assertThat(fake.lastTokenRequest()).isEqualTo(Map.of("client_id", MyAnimeListFake.CLIENT_ID,
        "client_secret", MyAnimeListFake.CLIENT_SECRET, "grant_type", "refresh_token",
        "refresh_token", "old-refresh"));
  }

  @Test
  void aRefusedRenewalIsASignInAgainNamingNoToken() {
    fake.refreshRefused();

    TrackerFailure failure = failure(tracker.refresh(tokens));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain("old-refresh", fake.token());
  }

  @Test
  void anUnknownRenewalTokenIsASignInAgain() {
    fake.refreshAccepts("another-refresh", "new-token");

    assertThat(failure(tracker.refresh(tokens)).kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
  }

  @Test
  void searchMapsTitlesChaptersYearAndDropsNovels() throws Exception {
    fake.searchFinds(13, "One Piece", "One Piece EN", "manga", 0, "1997-07-22")
        .searchFinds(21479, "Sword Art Online", null, "light_novel", 0, "2009-04-10")
        .searchFinds(2, "Berserk", null, "manga", 380, "1989");

    List<TrackerCandidate> found = await(tracker.search(tokens, "one piece " + "x".repeat(100)));

    assertThat(found).extracting(TrackerCandidate::remoteId).containsExactly("13", "2");
    TrackerCandidate first = found.get(0);
    assertThat(first.title()).isEqualTo("One Piece");
    assertThat(first.alternativeTitles()).containsExactly("One Piece EN", "One Piece (synonym)");
    assertThat(first.totalChapters()).isNull();
    assertThat(first.year()).isEqualTo(1997);
    assertThat(first.coverUrl()).endsWith("13l.jpg");
    assertThat(first.url()).isEqualTo("https://myanimelist.net/manga/13");
    assertThat(found.get(1).totalChapters()).isEqualTo(380);
    String sent = fake.events().get(0).getRequest().getUrl();
    assertThat(sent).contains("limit=20", "nsfw=true", "fields=" + MyAnimeListTracker.SEARCH_FIELDS.replace(",",
        "%2C"));
  }

  @Test
  void aListedEntryReadsProgressStatusAndChaptersAddressedByTheMangaId() throws Exception {
    fake.listEntry(2, 120, "on_hold", 380);

    RemoteEntry entry = await(tracker.entry(tokens, "2"));

    assertThat(entry.listed()).isTrue();
    assertThat(entry.listEntryId()).isEqualTo("2");
    assertThat(entry.entry()).isEqualTo(new TrackerEntry(120, TrackerStatus.ON_HOLD, 380));
  }

  @Test
  void aMangaWithoutListStatusIsNotListed() throws Exception {
    fake.notListed(2, 380);

    RemoteEntry entry = await(tracker.entry(tokens, "2"));

    assertThat(entry.listed()).isFalse();
    assertThat(entry.listEntryId()).isNull();
    assertThat(entry.entry()).isEqualTo(TrackerEntry.notListed(380));
  }

  @Test
  void saveSendsOnlyStatusAndChaptersRead() throws Exception {
    fake.acceptsSaves();

    await(tracker.save(tokens, notListed("2"), 3, TrackerStatus.READING));
    await(tracker.save(tokens, notListed("2"), 380, TrackerStatus.COMPLETED));

    assertThat(fake.savedProgress(2)).containsExactly(3, 380);
    assertThat(fake.savedForms()).containsExactly(Map.of("status", "reading", "num_chapters_read", "3"),
        Map.of("status", "completed", "num_chapters_read", "380"));
  }

  @Test
  void rereadingIsReadingWithTheRereadFlag() throws Exception {
    fake.acceptsSaves();

    await(tracker.save(tokens, notListed("2"), 5, TrackerStatus.REREADING));

    assertThat(fake.savedForms()).containsExactly(Map.of("status", "reading", "num_chapters_read", "5",
        "is_rereading", "true"));
  }

  @Test
  void aTitleNotApprovedIsARefusal() {
    fake.acceptsSaves().titleNotApproved(9);

    TrackerFailure failure = failure(tracker.save(tokens, notListed("9"), 1, TrackerStatus.READING));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.REFUSED);
    assertThat(failure.getMessage()).contains("not approved");
  }

  @Test
  void tooManyRequestsIsARateLimitForTheRetryAfterGiven() {
    fake.rateLimited(30);

    TrackerFailure failure = failure(tracker.entry(tokens, "2"));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.RATE_LIMITED);
    assertThat(failure.retryAfter()).contains(Duration.ofSeconds(30));
  }

  @Test
  void doSDetectedIsAFiveMinutePause() {
    fake.dosDetected();

    TrackerFailure failure = failure(tracker.save(tokens, notListed("2"), 1, TrackerStatus.READING));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.RATE_LIMITED);
    assertThat(failure.retryAfter()).contains(Duration.ofMinutes(5));
  }

  @Test
  void aRevokedTokenIsASignInAgainNamingNoToken() {
    fake.acceptsSaves().revoked();

    TrackerFailure failure = failure(tracker.save(tokens, notListed("2"), 3, TrackerStatus.READING));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain(fake.token());
  }

  @Test
  void aTokenMyAnimeListDoesNotKnowIsASignInAgainNamingNoToken() {
    fake.listEntry(2, 1, "reading", null);
    TrackerTokens stale = new TrackerTokens(new Secret("stale-token"), null, null, "77", "reader");

    TrackerFailure failure = failure(tracker.entry(stale, "2"));

    assertThat(failure.kind()).isEqualTo(TrackerFailure.Kind.SIGN_IN_AGAIN);
    assertThat(failure.getMessage()).doesNotContain("stale-token");
  }

  @Test
  void aTrackerDownIsUnavailable() {
    fake.down();

    assertThat(failure(tracker.search(tokens, "berserk")).kind()).isEqualTo(TrackerFailure.Kind.UNAVAILABLE);
  }

  @Test
  void statusesMapBothWays() {
    for (TrackerStatus status : TrackerStatus.values()) {
      assertThat(MyAnimeListTracker.status(MyAnimeListTracker.apiStatus(status), status == TrackerStatus.REREADING))
          .isEqualTo(status);
    }
  }
}
