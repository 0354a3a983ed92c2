package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.reader.store.SqliteDatabase;
import io.mangacircus.reader.store.SqliteTrackerStore;
import io.mangacircus.reader.store.SqliteUserStore;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.mangacircus.testing.MutableClock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tracker outbox delivered over a real SQLite store and token vault, against a scripted tracker: once, with the
 * latest progress, after a 429's pause and not before, through an outage and a restart, never lowering the tracker's
 * list, and waiting for a new sign-in when the token cannot be renewed.
 */
class TrackerDeliveryTest {

  private static final String ACCESS = "access-token-7f3a9c";
  private static final String REFRESH = "refresh-token-2b8e41";

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Map<String, Integer> ours = new HashMap<>();
  private final List<String> notices = new CopyOnWriteArrayList<>();
  private final List<SqliteDatabase> databases = new ArrayList<>();
  private final List<Vertx> vertxes = new ArrayList<>();
  private TrackerStore store;
  private TrackerTokenVault vault;
  private ScriptedTracker tracker;
  private TrackerDelivery delivery;
  private long user;

  @BeforeEach
  void setUp() throws Exception {
    SqliteDatabase db = open();
    store = new SqliteTrackerStore(db);
    user = new SqliteUserStore(db).createUser("ann", "hash", "reader", clock.instant());
    vault = new TrackerTokenVault(dir);
    tracker = new ScriptedTracker();
    delivery = delivery(store, tracker);
    signIn(ACCESS, clock.instant().plus(Duration.ofHours(1)));
  }

  @AfterEach
  void tearDown() throws Exception {
    for (Vertx vertx : vertxes) {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
    for (SqliteDatabase db : databases) {
      db.close();
    }
  }

  private SqliteDatabase open() {
    SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"));
    databases.add(db);
    return db;
  }

  private TrackerDelivery delivery(TrackerStore over, ScriptedTracker client) {
    Vertx vertx = Vertx.vertx();
    vertxes.add(vertx);
    return new TrackerDelivery(vertx, over, vault, Map.of("anilist", client),
        new TrackerPace(clock, Map.of("anilist", 90)), new TrackerSyncRules(clock), clock,
        (userId, series) -> new SeriesReading(ours.containsKey(series) ? List.of(ours.get(series) + "") : List.of()),
        (userId, trackerId, why) -> notices.add(userId + "/" + trackerId + ": " + why), registry);
  }

  private void signIn(String access, Instant expires) throws Exception {
    store.saveAccount(new TrackerAccount(user, "anilist", vault.seal(user, "anilist", new Secret(access)),
        vault.seal(user, "anilist", new Secret(REFRESH)), expires, "5", "ann", false, "", clock.instant()));
  }

  /** The user read up to {@code chapter} of a linked series and an update was requested. */
  private void read(String series, int chapter) throws Exception {
    if (store.link(user, "anilist", series).isEmpty()) {
      store.saveLink(TrackerLink.of(user, "anilist", series, "r-" + series, "", true, clock.instant()));
    }
    ours.put(series, chapter);
    store.requestUpdate(user, "anilist", series, clock.instant(), clock.instant());
  }

  private int deliver(TrackerDelivery which) throws Exception {
    return which.deliverDue().await(10, TimeUnit.SECONDS);
  }

  private int deliver() throws Exception {
    return deliver(delivery);
  }

  private double counted(String outcome) {
    var counter = registry.find("mc.tracker.updates").tags("tracker", "anilist", "outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aReadChapterIsPushedOnceWithItsProgressAndTheLinkRecordsIt() throws Exception {
    read("moon", 3);

    assertThat(deliver()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(5));
    assertThat(deliver()).isZero();

    assertThat(tracker.saves).containsExactly("r-moon:3:READING");
    assertThat(tracker.accessSent).containsOnly(ACCESS);
    TrackerLink link = store.link(user, "anilist", "moon").orElseThrow();
    assertThat(link.trackerProgress()).isEqualTo(3);
    assertThat(link.trackerStatus()).isEqualTo("READING");
    assertThat(link.lastPushAt()).isEqualTo(MutableClock.START);
    assertThat(link.lastError()).isEmpty();
    assertThat(store.pendingByTracker()).isEmpty();
  }

  @Test
  void anUpdateRequestedFiveTimesIsOnePushOfTheLatestProgress() throws Exception {
    for (int chapter = 1; chapter <= 5; chapter++) {
      read("moon", chapter);
    }

    deliver();

    assertThat(tracker.saves).containsExactly("r-moon:5:READING");
  }

  @Test
  void aRateLimitWithRetryAfterThirtyHoldsTheWholeTrackerUntilThirtySecondsHavePassed() throws Exception {
    read("moon", 3);
    read("sun", 7);
    tracker.failNextEntry = new TrackerFailure("anilist", TrackerFailure.Kind.RATE_LIMITED, "asked to slow down",
        Duration.ofSeconds(30));

    deliver();
    clock.advance(Duration.ofSeconds(29));
    deliver();
    assertThat(tracker.entries).as("no request before the pause is over, for any series of that tracker")
        .isEqualTo(1);
    assertThat(tracker.saves).isEmpty();

    clock.advance(Duration.ofSeconds(1));
    deliver();
    assertThat(tracker.saves).containsExactly("r-moon:3:READING");
    clock.advance(Duration.ofSeconds(2));
    deliver();
    assertThat(tracker.saves).containsExactly("r-moon:3:READING", "r-sun:7:READING");
    assertThat(counted("rate_limited")).isEqualTo(1);
  }

  @Test
  void aTrackerDownForTenMinutesGetsEveryPendingUpdateOnceWhenBackAndFewTriesMeanwhile() throws Exception {
    read("a", 1);
    read("b", 2);
    read("c", 3);
    Instant back = MutableClock.START.plus(Duration.ofMinutes(10));
    tracker.downUntil = back;

    while (clock.instant().isBefore(back.plus(Duration.ofMinutes(6)))) {
      deliver();
      if (clock.instant().plusSeconds(5).equals(back)) {
        assertThat(store.pendingByTracker()).as("nothing lost while down").containsEntry("anilist", 3);
      }
      clock.advance(Duration.ofSeconds(5));
    }

    assertThat(tracker.saves).containsExactlyInAnyOrder("r-a:1:READING", "r-b:2:READING", "r-c:3:READING");
    // One probe at a time for the whole tracker, 15 s doubling to 5 min: tries at 0, 15, 45, 105, 225 and 465 s.
    assertThat(tracker.triesWhileDown).isBetween(1, 6);
    assertThat(store.pendingByTracker()).isEmpty();
    assertThat(counted("unavailable")).isEqualTo(tracker.triesWhileDown);
    assertThat(counted("delivered")).isEqualTo(3);
  }

  @Test
  void aTrackerAheadOfUsIsNotLoweredAndItsProgressIsOfferedToPull() throws Exception {
    tracker.progress.put("r-moon", 10);
    read("moon", 4);

    assertThat(deliver()).isEqualTo(1);

    assertThat(tracker.saves).isEmpty();
    TrackerLink link = store.link(user, "anilist", "moon").orElseThrow();
    assertThat(link.pullOffered()).isEqualTo(10);
    assertThat(link.trackerProgress()).isEqualTo(10);
    assertThat(store.pendingByTracker()).isEmpty();
    assertThat(counted("pull_offered")).isEqualTo(1);
  }

  @Test
  void anExpiredTokenThatCannotBeRenewedAsksForANewSignInOnceAndLosesNothing() throws Exception {
    signIn(ACCESS, clock.instant().plus(Duration.ofMinutes(1)));
    tracker.refuseRefresh = true;
    read("moon", 3);

    deliver();
    clock.advance(Duration.ofHours(2));
    deliver();

    assertThat(store.account(user, "anilist").orElseThrow().needsSignIn()).isTrue();
    assertThat(notices).hasSize(1).allMatch(n -> n.startsWith(user + "/anilist: "));
    assertThat(tracker.entries).as("no request goes out with a token that does not work").isZero();
    assertThat(store.pendingUpdate(user, "anilist", "moon").orElseThrow().lastError())
        .isEqualTo("sign in to AniList again");
    assertThat(counted("sign_in_again")).isEqualTo(1);

    signIn("access-after-sign-in", clock.instant().plus(Duration.ofHours(1)));
    store.releaseWaiting(user, "anilist", clock.instant());
    deliver();
    assertThat(tracker.saves).containsExactly("r-moon:3:READING");
    assertThat(tracker.accessSent).containsExactly("access-after-sign-in");
  }

  @Test
  void aTokenAboutToExpireIsRenewedSealedAndSavedBeforeTheUpdate() throws Exception {
    signIn(ACCESS, clock.instant().plus(Duration.ofMinutes(1)));
    read("moon", 3);

    deliver();

    assertThat(tracker.saves).containsExactly("r-moon:3:READING");
    assertThat(tracker.accessSent).containsOnly("renewed-access");
    TrackerAccount account = store.account(user, "anilist").orElseThrow();
    assertThat(vault.open(user, "anilist", account.sealedAccess()).reveal()).isEqualTo("renewed-access");
    assertThat(account.sealedAccess()).doesNotContain("renewed-access");
    assertThat(account.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
  }

  @Test
  void updatesLeftPendingByAnAbandonedDeliveryAreDeliveredOnceByANewOneOverTheReopenedFile() throws Exception {
    tracker.hang = true;
    read("moon", 3);
    read("sun", 5);
    delivery.deliverDue();
    await().atMost(Duration.ofSeconds(10)).until(() -> tracker.entries == 1);

    // As after kill -9: the first delivery never finishes; a new process opens the same file.
    TrackerStore reopened = new SqliteTrackerStore(open());
    ScriptedTracker afterRestart = new ScriptedTracker();
    TrackerDelivery restarted = delivery(reopened, afterRestart);
    deliver(restarted);
    assertThat(afterRestart.entries).as("the abandoned delivery's claims hold until they lapse").isZero();
    clock.advance(TrackerDelivery.CLAIM);
    deliver(restarted);
    clock.advance(Duration.ofSeconds(2));
    deliver(restarted);
    clock.advance(Duration.ofMinutes(2));
    deliver(restarted);

    assertThat(afterRestart.saves).containsExactly("r-moon:3:READING", "r-sun:5:READING");
    assertThat(reopened.pendingByTracker()).isEmpty();
  }

  @Test
  void aRunWhoseClaimLapsedWhileAnUpdateHungLeavesTheRestToTheNextClaim() throws Exception {
    tracker.hang = true;
    read("moon", 3);
    read("sun", 5);
    Future<Integer> run = delivery.deliverDue();
    await().atMost(Duration.ofSeconds(10)).until(() -> tracker.held != null);

    clock.advance(TrackerDelivery.CLAIM);
    tracker.hang = false;
    tracker.held.fail(new TrackerFailure("anilist", TrackerFailure.Kind.REFUSED, "no such entry"));

    assertThat(run.toCompletionStage().toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS)).isZero();
    assertThat(tracker.entries).as("sun's claim had lapsed: not sent by this run").isEqualTo(1);
    assertThat(store.pendingUpdate(user, "anilist", "sun")).isPresent();
    deliver();
    assertThat(tracker.saves).as("the next run claims it anew").containsExactly("r-sun:5:READING");
  }

  @Test
  void outcomesAreCountedByTrackerAndOutcomeAndNoTokenReachesAMeterOrAStoredMessage() throws Exception {
    read("moon", 3);
    deliver();
    clock.advance(Duration.ofSeconds(2));
    tracker.failNextEntry = new TrackerFailure("anilist", TrackerFailure.Kind.REFUSED,
        "answered 404 to a request with token " + ACCESS);
    read("sun", 1);
    deliver();

    assertThat(counted("delivered")).isEqualTo(1);
    assertThat(counted("refused")).isEqualTo(1);
    assertThat(registry.get("mc.tracker.pending").tag("tracker", "anilist").gauge().value()).isZero();
    assertThat(store.link(user, "anilist", "sun").orElseThrow().lastError()).contains("answered 404")
        .doesNotContain(ACCESS);
    for (Meter meter : registry.getMeters()) {
      assertThat(meter.getId().toString()).doesNotContain(ACCESS).doesNotContain(REFRESH);
    }
  }

  @Test
  void thePendingGaugeCountsWhatWaitsForEachConfiguredTracker() throws Exception {
    tracker.downUntil = Instant.MAX;
    read("moon", 3);
    read("sun", 1);

    deliver();

    assertThat(registry.get("mc.tracker.pending").tag("tracker", "anilist").gauge().value()).isEqualTo(2);
  }

  /** A tracker that answers as the test scripts it, and records what it was sent. */
  private final class ScriptedTracker implements TrackerClient {

    final Map<String, Integer> progress = new HashMap<>();
    final List<String> saves = new CopyOnWriteArrayList<>();
    final List<String> accessSent = new CopyOnWriteArrayList<>();
    volatile int entries;
    volatile int triesWhileDown;
    volatile TrackerFailure failNextEntry;
    volatile Instant downUntil = Instant.MIN;
    volatile boolean refuseRefresh;
    volatile boolean hang;
    volatile Promise<RemoteEntry> held;

    @Override
    public String id() {
      return "anilist";
    }

    @Override
    public String name() {
      return "AniList";
    }

    @Override
    public boolean signsInWithPassword() {
      return false;
    }

    @Override
    public String authorizeUrl(String state, String codeVerifier, String redirectUri) {
      throw new UnsupportedOperationException("not part of delivery");
    }

    @Override
    public Future<TrackerTokens> exchangeCode(String code, String codeVerifier, String redirectUri) {
      throw new UnsupportedOperationException("not part of delivery");
    }

    @Override
    public Future<TrackerTokens> logIn(String username, Secret password) {
      throw new UnsupportedOperationException("not part of delivery");
    }

    @Override
    public Future<TrackerTokens> refresh(TrackerTokens tokens) {
      if (refuseRefresh) {
        return Future.failedFuture(new TrackerFailure("anilist", TrackerFailure.Kind.SIGN_IN_AGAIN,
            "refused the renewal (400 invalid_grant)"));
      }
      return Future.succeededFuture(new TrackerTokens(new Secret("renewed-access"), new Secret("renewed-refresh"),
          clock.instant().plus(Duration.ofHours(1)), "5", "ann"));
    }

    @Override
    public Future<List<TrackerCandidate>> search(TrackerTokens tokens, String query) {
      throw new UnsupportedOperationException("not part of delivery");
    }

    @Override
    public Future<RemoteEntry> entry(TrackerTokens tokens, String remoteId) {
      entries++;
      accessSent.add(tokens.access().reveal());
      if (hang) {
        return Future.future(promise -> held = promise);
      }
      if (clock.instant().isBefore(downUntil)) {
        triesWhileDown++;
        return Future.failedFuture(new TrackerFailure("anilist", TrackerFailure.Kind.UNAVAILABLE, "answered 503"));
      }
      TrackerFailure failure = failNextEntry;
      if (failure != null) {
        failNextEntry = null;
        return Future.failedFuture(failure);
      }
      int read = progress.getOrDefault(remoteId, 0);
      return Future.succeededFuture(new RemoteEntry(remoteId, "entry-" + remoteId, read > 0,
          new TrackerEntry(read, read > 0 ? TrackerStatus.READING : TrackerStatus.PLAN_TO_READ, null), "Title"));
    }

    @Override
    public Future<Void> save(TrackerTokens tokens, RemoteEntry current, int chapters, TrackerStatus status) {
      saves.add(current.remoteId() + ":" + chapters + ":" + status);
      progress.put(current.remoteId(), chapters);
      return Future.succeededFuture();
    }
  }
}
