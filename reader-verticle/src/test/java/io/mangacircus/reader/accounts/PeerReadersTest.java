package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.LoginAttempted;
import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.reader.access.SeriesMerges;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.store.AppScope;
import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.SharedProgressCache;
import io.mangacircus.testing.MutableClock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two readers over one database, each with its own guard, throttle and accounts' access, joined by {@link PeerReaders}
 * on one event bus: what one changes, the other stops trusting from memory at once. The clock stands still, so that
 * only a message (never the 5 s or 1 min memory running out) can make the other reader read the database again.
 */
class PeerReadersTest {

  private static final String TOKEN = "rita-session-token";

  @TempDir
  Path work;

  private final MutableClock clock = new MutableClock();
  private Vertx vertx;
  private ReaderStores stores;
  private AccessGuard guardA;
  private AccessGuard guardB;
  private VisibleSeries visibleB;
  private final SeriesMerges mergesA = SeriesMerges.none();
  private final SeriesMerges mergesB = SeriesMerges.none();
  private PeerReaders peersA;
  private PeerReaders peersB;
  private long rita;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    stores = ReaderStores.openSqlite(work.resolve("reader.db"));
    rita = stores.users().createUser("rita", PasswordHasher.hash("rita-password-1".toCharArray()), "reader",
        clock.instant());
    stores.sessions().createSession(Sessions.hash(TOKEN), rita, "csrf", clock.instant(),
        clock.instant().plusSeconds(3600));
    guardA = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), "", clock);
    guardB = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), "", clock);
    visibleB = new VisibleSeries(null, null, stores.users().accesses());
    peersA = PeerReaders.on(vertx, "reader-a", guardA, stores, new VisibleSeries(null, null, Map.of()), mergesA, true);
    peersB = PeerReaders.on(vertx, "reader-b", guardB, stores, visibleB, mergesB, true);
    peersA.ready().compose(v -> peersB.ready()).await();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await();
    stores.close();
  }

  private boolean liveOnB() {
    return guardB.lookup(TOKEN).await().isPresent();
  }

  @Test
  void aLogoutOnOneReaderEndsTheSessionOnTheOtherAtOnce() throws Exception {
    assertThat(liveOnB()).as("looked up, and so remembered, on B").isTrue();

    stores.sessions().deleteSession(Sessions.hash(TOKEN));
    guardA.forget(Sessions.hash(TOKEN));

    await().atMost(Duration.ofSeconds(5)).until(() -> !liveOnB());
  }

  @Test
  void aPasswordResetOnOneReaderEndsTheSessionsTheOtherRemembers() throws Exception {
    assertThat(liveOnB()).isTrue();

    stores.users().setPassword("rita", PasswordHasher.hash("rita-password-2".toCharArray()), clock.instant());
    guardA.forgetAll();

    await().atMost(Duration.ofSeconds(5)).until(() -> !liveOnB());
  }

  @Test
  void anAppPasswordRevokedOnOneReaderIsNoLongerTrustedOnTheOther() throws Exception {
    AppPasswords.Created created = guardB.appPasswords().create(rita, "tablet", AppScope.READ).orElseThrow();
    assertThat(guardB.appPasswords().check("rita", created.secret())).isPresent();
    assertThat(guardB.appPasswords().recalled("rita", created.secret())).as("remembered on B").isPresent();

    assertThat(guardA.appPasswords().revoke(rita, created.id())).isTrue();

    await().atMost(Duration.ofSeconds(5))
        .until(() -> guardB.appPasswords().recalled("rita", created.secret()).isEmpty());
    assertThat(guardB.appPasswords().check("rita", created.secret())).isEmpty();
  }

  @Test
  void anAccessChangeOnOneReaderIsReadFromTheDatabaseOnTheOther() throws Exception {
    UserAccess onlyKids = UserAccess.only(Set.of("kids"), AgeLimit.NONE);
    assertThat(visibleB.of("rita", "reader").access()).isEqualTo(UserAccess.EVERYTHING);

    stores.users().setAccess("rita", onlyKids);
    peersA.accessChanged("rita", onlyKids);

    await().atMost(Duration.ofSeconds(5)).until(() -> visibleB.of("rita", "reader").access().equals(onlyKids));
  }

  @Test
  void readingSavedThroughOneReaderIsReadAgainOnTheOtherAtOnce() throws Exception {
    SharedProgressCache keptA = new SharedProgressCache(stores.progress(), clock);
    SharedProgressCache keptB = new SharedProgressCache(stores.progress(), clock);
    peersA.follow(keptA);
    peersB.follow(keptB);
    peersA.ready().compose(v -> peersB.ready()).await();
    assertThat(keptB.readChapters(rita)).as("read, and so kept, on B").isEmpty();

    keptA.saveProgress(rita, "moon", "chapter-0001", 20, true, clock.instant());

    await().atMost(Duration.ofSeconds(5))
        .until(() -> keptB.readChapters(rita).equals(Map.of("moon", Set.of("chapter-0001"))));
  }

  @Test
  void aCatalogChangeOnOneReaderIsReadFromTheDatabaseOnTheOtherWhichThenRefreshesItsLists() throws Exception {
    KeptCatalog keptA = KeptCatalog.load(stores.catalog());
    KeptCatalog keptB = KeptCatalog.load(stores.catalog());
    AtomicInteger listsRefreshedOnB = new AtomicInteger();
    peersA.follow(keptA, () -> { });
    peersB.follow(keptB, listsRefreshedOnB::incrementAndGet);
    peersA.ready().compose(v -> peersB.ready()).await();

    keptA.putSeries("moon", new CatalogStore.SeriesMeta("Moons.", List.of("space")));

    await().atMost(Duration.ofSeconds(5)).until(() -> keptB.series("moon").description().equals("Moons."));
    await().atMost(Duration.ofSeconds(5)).until(() -> listsRefreshedOnB.get() == 1);
  }

  @Test
  void aSeriesMergeAndUnmergeOnOneReaderAreReadFromTheDatabaseOnTheOther() throws Exception {
    stores.merges().merge("moon-side", "moon", clock.instant());
    mergesA.merged("moon-side", "moon");
    peersA.mergesChanged();

    await().atMost(Duration.ofSeconds(5)).until(() -> mergesB.mergedInto("moon-side").isPresent());
    assertThat(mergesB.all()).containsExactly(Map.entry("moon-side", "moon"));

    stores.merges().unmerge("moon-side");
    mergesA.unmerged("moon-side");
    peersA.mergesChanged();

    await().atMost(Duration.ofSeconds(5)).until(() -> !mergesB.any());
  }

  @Test
  void loginFailuresSpreadOverBothReadersLockTheClientOutOnBoth() {
    for (int i = 0; i < 5; i++) {
      AccessGuard on = i % 2 == 0 ? guardA : guardB;
      LoginThrottle.Attempt attempt = on.loginThrottle().begin("10.0.0.9", "rita");
      assertThat(attempt.admitted()).as("attempt %d admitted", i + 1).isTrue();
      on.loginThrottle().failed(attempt);
    }

    await().atMost(Duration.ofSeconds(5)).until(() -> !guardA.loginThrottle().waitFor("10.0.0.9", "rita").isZero()
        && !guardB.loginThrottle().waitFor("10.0.0.9", "rita").isZero());
    assertThat(guardA.loginThrottle().begin("10.0.0.9", "rita").admitted()).isFalse();
    assertThat(guardB.loginThrottle().begin("10.0.0.9", "rita").admitted()).isFalse();
  }

  @Test
  void aReaderCountsItsOwnStepsOnceThoughItsPublicationsComeBackToIt() {
    for (int i = 0; i < 3; i++) {
      guardA.loginThrottle().failed("10.0.0.9", "rita");
    }
    // Published after A's own three: once A has applied these, it has seen its own come back.
    probeFailures("reader-probe", "10.0.0.77");

    await().atMost(Duration.ofSeconds(5))
        .until(() -> !guardA.loginThrottle().waitFor("10.0.0.77", "probe").isZero());
    assertThat(guardA.loginThrottle().waitFor("10.0.0.9", "rita")).as("three failures, not six").isZero();
  }

  @Test
  void malformedMessagesAreIgnoredAndTheNextGoodOneIsApplied() {
    for (String address : new String[] {Addresses.READER_SESSION_ENDED, Addresses.READER_ACCOUNTS_CHANGED,
        Addresses.READER_LOGIN_ATTEMPTED}) {
      vertx.eventBus().publish(address, "not an object");
      vertx.eventBus().publish(address, new JsonObject().put("v", 1).put("from", "reader-x"));
      vertx.eventBus().publish(address, new JsonObject().put("v", 9).put("from", "reader-x"));
    }
    for (int i = 0; i < 5; i++) {
      vertx.eventBus().publish(Addresses.READER_LOGIN_ATTEMPTED, new LoginAttempted("reader-x", "10.0.0.79", "probe",
          clock.instant(), LoginAttempted.Step.BEGUN).toJson().put("v", 2));
    }

    probeFailures("reader-x", "10.0.0.78");

    await().atMost(Duration.ofSeconds(5))
        .until(() -> !guardB.loginThrottle().waitFor("10.0.0.78", "probe").isZero());
    assertThat(guardB.loginThrottle().waitFor("10.0.0.79", "probe")).as("a version this reader does not speak")
        .isZero();
  }

  /** Five failures of user {@code probe} from {@code client}, published as another reader would. */
  private void probeFailures(String from, String client) {
    Instant at = clock.instant();
    for (int i = 0; i < 5; i++) {
      vertx.eventBus().publish(Addresses.READER_LOGIN_ATTEMPTED,
          new LoginAttempted(from, client, "probe", at, LoginAttempted.Step.BEGUN).toJson());
    }
  }
}
