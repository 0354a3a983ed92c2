package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tracker accounts, links and the tracker outbox on each engine: one pending update per series that coalesces
 * requests, a delivery that never removes a newer request, versions that only grow with writers at once, kept across a
 * reopen, gone with their user.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class TrackerStoreContractTest {

  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

  @Parameter
  Engine engine;

  @TempDir
  Path dir;

  private ContractDatabase database;
  private TrackerStore store;
  private long ann;
  private long bob;

  @BeforeEach
  void open() throws Exception {
    database = ContractDatabase.fresh(engine, dir);
    store = database.stores().trackers();
    ann = database.stores().users().createUser("ann", "hash", "reader", NOW);
    bob = database.stores().users().createUser("bob", "hash", "reader", NOW);
  }

  @AfterEach
  void close() throws Exception {
    database.close();
  }

  private TrackerAccount account(long user, String tracker, boolean needsSignIn) {
    return new TrackerAccount(user, tracker, "v1:sealed-access", null, NOW.plus(Duration.ofHours(1)), "42", "Ann",
        needsSignIn, needsSignIn ? "expired" : "", NOW);
  }

  @Test
  void accountsAreSavedReplacedListedByTrackerAndDeleted() throws Exception {
    store.saveAccount(account(ann, "mangaupdates", false));
    store.saveAccount(account(ann, "anilist", false));
    store.saveAccount(account(ann, "anilist", true));

    assertThat(store.account(ann, "anilist")).contains(account(ann, "anilist", true));
    assertThat(store.accounts(ann)).extracting(TrackerAccount::tracker).containsExactly("anilist", "mangaupdates");
    assertThat(store.accounts(bob)).isEmpty();
    assertThat(store.account(bob, "anilist")).isEmpty();

    assertThat(store.deleteAccount(ann, "anilist")).isTrue();
    assertThat(store.deleteAccount(ann, "anilist")).isFalse();
    assertThat(store.account(ann, "anilist")).isEmpty();
  }

  @Test
  void linksKeepEveryFieldAreListedAndDeletedWithTheirPendingUpdate() throws Exception {
    TrackerLink full = new TrackerLink(ann, "anilist", "moon", "30013", "Moon", true, "entry-7", 12, "READING", 40,
        NOW.minusSeconds(60), NOW, "answered 500", 14, NOW.minusSeconds(3600));
    store.saveLink(full);
    store.saveLink(TrackerLink.of(ann, "kitsu", "moon", "k-1", "Moon", false, NOW));
    store.saveLink(TrackerLink.of(ann, "anilist", "albatross", "1", "", false, NOW));
    store.saveLink(TrackerLink.of(bob, "anilist", "moon", "30013", "Moon", false, NOW));

    assertThat(store.link(ann, "anilist", "moon")).contains(full);
    assertThat(store.link(ann, "kitsu", "moon").orElseThrow().trackerProgress()).as("null stays null").isNull();
    assertThat(store.links(ann, "moon")).extracting(TrackerLink::tracker).containsExactly("anilist", "kitsu");
    assertThat(store.links(ann)).extracting(l -> l.series() + "/" + l.tracker())
        .containsExactly("albatross/anilist", "moon/anilist", "moon/kitsu");

    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    assertThat(store.deleteLink(ann, "anilist", "moon")).isTrue();
    assertThat(store.deleteLink(ann, "anilist", "moon")).isFalse();
    assertThat(store.link(ann, "anilist", "moon")).isEmpty();
    assertThat(store.pendingUpdate(ann, "anilist", "moon")).as("a link's pending update goes with it").isEmpty();
    assertThat(store.link(bob, "anilist", "moon")).isPresent();
  }

  @Test
  void requestsForOneSeriesCoalesceIntoOneUpdateKeepingALaterDueAndRaisingItsVersion() throws Exception {
    Instant paused = NOW.plusSeconds(30);
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    long first = store.pendingUpdate(ann, "anilist", "moon").orElseThrow().version();
    store.postpone(ann, "anilist", "moon", paused, 1, "asked to slow down");
    store.requestUpdate(ann, "anilist", "moon", NOW.plusSeconds(1), NOW.plusSeconds(1));
    store.requestUpdate(ann, "anilist", "moon", NOW.plusSeconds(2), NOW.plusSeconds(2));

    TrackerUpdate update = store.pendingUpdate(ann, "anilist", "moon").orElseThrow();
    assertThat(update.due()).as("the pause the tracker asked for still holds").isEqualTo(paused);
    assertThat(update.version()).isGreaterThanOrEqualTo(first + 2);
    assertThat(update.attempts()).isEqualTo(1);
    assertThat(store.pendingByTracker()).containsExactly(Map.entry("anilist", 1));

    store.requestUpdate(ann, "anilist", "moon", NOW.plusSeconds(90), NOW.plusSeconds(3));
    assertThat(store.pendingUpdate(ann, "anilist", "moon").orElseThrow().due()).as("a later due is taken")
        .isEqualTo(NOW.plusSeconds(90));
  }

  @Test
  void dueUpdatesComeEarliestFirstUpToTheMaximumAndNextDueNamesTheEarliest() throws Exception {
    assertThat(store.nextDue()).isEmpty();
    store.requestUpdate(ann, "anilist", "late", NOW.plusSeconds(60), NOW);
    store.requestUpdate(ann, "anilist", "second", NOW.minusSeconds(5), NOW);
    store.requestUpdate(bob, "kitsu", "first", NOW.minusSeconds(10), NOW);
    store.requestUpdate(ann, "kitsu", "fraction", NOW.plusMillis(1).minusNanos(1), NOW);

    assertThat(store.dueUpdates(NOW, 10)).extracting(TrackerUpdate::series).containsExactly("first", "second");
    assertThat(store.dueUpdates(NOW, 1)).extracting(TrackerUpdate::series).containsExactly("first");
    assertThat(store.dueUpdates(NOW.plusMillis(1), 10)).extracting(TrackerUpdate::series)
        .as("an update is never due before its time, fractions of a millisecond included")
        .containsExactly("first", "second", "fraction");
    assertThat(store.nextDue()).contains(NOW.minusSeconds(10));
    assertThat(store.pendingByTracker()).containsExactly(Map.entry("anilist", 2), Map.entry("kitsu", 2));
  }

  @Test
  void postponeRecordsTriesAndErrorAndReleaseWaitingBringsOnlyThatUsersTrackerForward() throws Exception {
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    store.requestUpdate(ann, "anilist", "sun", NOW, NOW);
    store.requestUpdate(ann, "kitsu", "moon", NOW, NOW);
    store.requestUpdate(bob, "anilist", "moon", NOW, NOW);
    Instant hour = NOW.plus(Duration.ofHours(1));
    for (String[] key : new String[][] {{"anilist", "moon"}, {"anilist", "sun"}, {"kitsu", "moon"}}) {
      store.postpone(ann, key[0], key[1], hour, 3, "sign in to AniList again");
    }
    store.postpone(bob, "anilist", "moon", hour, 1, "sign in to AniList again");

    TrackerUpdate waiting = store.pendingUpdate(ann, "anilist", "moon").orElseThrow();
    assertThat(waiting.due()).isEqualTo(hour);
    assertThat(waiting.attempts()).isEqualTo(3);
    assertThat(waiting.lastError()).isEqualTo("sign in to AniList again");
    assertThat(store.dueUpdates(NOW, 10)).isEmpty();

    Instant signedIn = NOW.plusSeconds(600);
    store.releaseWaiting(ann, "anilist", signedIn);
    assertThat(store.dueUpdates(signedIn, 10)).extracting(u -> u.userId() + "/" + u.tracker() + "/" + u.series())
        .containsExactlyInAnyOrder(ann + "/anilist/moon", ann + "/anilist/sun");
  }

  @Test
  void aDeliveryOfAnOlderVersionKeepsTheNewerRequestWithItsTriesCleared() throws Exception {
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    TrackerUpdate taken = store.pendingUpdate(ann, "anilist", "moon").orElseThrow();
    store.postpone(ann, "anilist", "moon", NOW, 2, "answered 503");
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW.plusSeconds(1));

    assertThat(store.delivered(ann, "anilist", "moon", taken.version())).isFalse();
    TrackerUpdate kept = store.pendingUpdate(ann, "anilist", "moon").orElseThrow();
    assertThat(kept.attempts()).isZero();
    assertThat(kept.lastError()).isEmpty();

    assertThat(store.delivered(ann, "anilist", "moon", kept.version())).isTrue();
    assertThat(store.pendingUpdate(ann, "anilist", "moon")).isEmpty();
    assertThat(store.pendingByTracker()).isEmpty();
  }

  @Test
  void anUpdateRequestedAgainAfterItsDeliveryIsNewerThanTheDeliveredOne() throws Exception {
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    long delivered = store.pendingUpdate(ann, "anilist", "moon").orElseThrow().version();
    assertThat(store.delivered(ann, "anilist", "moon", delivered)).isTrue();

    store.requestUpdate(ann, "anilist", "moon", NOW.plusMillis(1), NOW.plusMillis(1));
    assertThat(store.pendingUpdate(ann, "anilist", "moon").orElseThrow().version()).isGreaterThan(delivered);
  }

  @Test
  void everythingSurvivesClosingAndReopeningTheDatabase() throws Exception {
    store.saveAccount(account(ann, "anilist", false));
    store.saveLink(TrackerLink.of(ann, "anilist", "moon", "30013", "Moon", true, NOW));
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    TrackerUpdate before = store.pendingUpdate(ann, "anilist", "moon").orElseThrow();

    database.reopen();
    store = database.stores().trackers();
    assertThat(store.account(ann, "anilist")).contains(account(ann, "anilist", false));
    assertThat(store.link(ann, "anilist", "moon")).contains(TrackerLink.of(ann, "anilist", "moon", "30013", "Moon",
        true, NOW));
    assertThat(store.pendingUpdate(ann, "anilist", "moon")).contains(before);
  }

  @Test
  void aDeletedUserTakesTheirAccountsLinksAndPendingUpdates() throws Exception {
    for (long user : new long[] {ann, bob}) {
      store.saveAccount(account(user, "anilist", false));
      store.saveLink(TrackerLink.of(user, "anilist", "moon", "30013", "Moon", true, NOW));
      store.requestUpdate(user, "anilist", "moon", NOW, NOW);
    }
    database.deleteUser(ann);

    assertThat(store.accounts(ann)).isEmpty();
    assertThat(store.links(ann)).isEmpty();
    assertThat(store.pendingUpdate(ann, "anilist", "moon")).isEmpty();
    assertThat(store.accounts(bob)).hasSize(1);
    assertThat(store.links(bob)).hasSize(1);
    assertThat(store.pendingByTracker()).containsExactly(Map.entry("anilist", 1));
  }

  @Test
  void versionsHandedToWritersAtOnceAreAllDifferentAndTheLastRequestHoldsTheHighest() throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(8);
    try {
      // 32 (user, series) pairs, each asked for twice.
      List<Callable<Void>> requests = IntStream.range(0, 64).<Callable<Void>>mapToObj(i -> () -> {
        store.requestUpdate(i % 2 == 0 ? ann : bob, "anilist", "series-" + (i / 2) % 16, NOW, NOW);
        return null;
      }).toList();
      for (Future<Void> done : writers.invokeAll(requests)) {
        done.get();
      }
    } finally {
      writers.shutdownNow();
    }
    List<Long> versions = new ArrayList<>();
    for (TrackerUpdate update : store.dueUpdates(NOW, 100)) {
      versions.add(update.version());
    }
    assertThat(versions).as("one pending update per user and series").hasSize(32).doesNotHaveDuplicates();

    store.requestUpdate(ann, "anilist", "series-0", NOW, NOW);
    assertThat(store.pendingUpdate(ann, "anilist", "series-0").orElseThrow().version())
        .as("a request after all the others is newer than every one of them")
        .isGreaterThan(versions.stream().mapToLong(Long::longValue).max().orElseThrow());
  }

  @Test
  void twoReadersClaimingDueUpdatesAtOnceGetEachUpdateOnce() throws Exception {
    for (int i = 0; i < 40; i++) {
      store.requestUpdate(i % 2 == 0 ? ann : bob, "anilist", "series-" + i, NOW, NOW);
    }
    TrackerStore other = database.secondReader().trackers();
    Instant until = NOW.plus(Duration.ofMinutes(10));
    ExecutorService readers = Executors.newFixedThreadPool(8);
    List<String> claimed = new ArrayList<>();
    try {
      // Eight deliveries at once, four on each reader, each taking up to 8 of the 40 due updates.
      List<Callable<List<TrackerUpdate>>> claims = IntStream.range(0, 8)
          .<Callable<List<TrackerUpdate>>>mapToObj(i -> () -> (i % 2 == 0 ? store : other).claimDue(NOW, until, 8))
          .toList();
      for (Future<List<TrackerUpdate>> done : readers.invokeAll(claims)) {
        done.get().forEach(u -> claimed.add(u.userId() + "/" + u.series()));
      }
    } finally {
      readers.shutdownNow();
    }
    assertThat(claimed).as("every due update claimed by one delivery only").hasSize(40).doesNotHaveDuplicates();
    assertThat(store.claimDue(NOW, until, 100)).as("nothing left to claim while the claims hold").isEmpty();
    assertThat(other.dueUpdates(NOW, 100)).as("claimed updates are not due to anyone else").isEmpty();
    assertThat(store.pendingByTracker()).as("a claim removes nothing").containsExactly(Map.entry("anilist", 40));
  }

  @Test
  void aClaimHoldsUntilItLapsesAndAPostponeOrANewerRequestsDeliveryReleasesIt() throws Exception {
    store.requestUpdate(ann, "anilist", "moon", NOW, NOW);
    store.requestUpdate(ann, "anilist", "sun", NOW, NOW);
    store.requestUpdate(ann, "anilist", "star", NOW, NOW);
    Instant until = NOW.plus(Duration.ofMinutes(10));
    List<TrackerUpdate> first = store.claimDue(NOW, until, 10);
    assertThat(first).extracting(TrackerUpdate::series).containsExactlyInAnyOrder("moon", "sun", "star");
    assertThat(store.nextDue()).as("claimed: due again when the claim lapses").contains(until);

    store.postpone(ann, "anilist", "moon", NOW.plusSeconds(1), 1, "busy");
    store.requestUpdate(ann, "anilist", "sun", NOW, NOW);
    long sunClaimed = first.stream().filter(u -> u.series().equals("sun")).findFirst().orElseThrow().version();
    assertThat(store.delivered(ann, "anilist", "sun", sunClaimed)).as("requested again meanwhile").isFalse();

    assertThat(store.claimDue(NOW.plusSeconds(1), until, 10)).extracting(TrackerUpdate::series)
        .as("postponed and requested-again updates are released; the held one stays held")
        .containsExactlyInAnyOrder("moon", "sun");
    assertThat(store.claimDue(until, until.plus(Duration.ofMinutes(10)), 10)).extracting(TrackerUpdate::series)
        .as("a claim never released lapses").containsExactlyInAnyOrder("moon", "sun", "star");
  }
}
