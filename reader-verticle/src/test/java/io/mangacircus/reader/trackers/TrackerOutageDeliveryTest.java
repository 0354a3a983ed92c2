package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.SqliteDatabase;
import io.mangacircus.reader.store.SqliteTrackerStore;
import io.mangacircus.reader.store.SqliteUserStore;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.mangacircus.testing.MutableClock;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tracker outbox against AniList's fake through the real AniList client, on a test clock: a 429 with
 * {@code Retry-After: 30} delays the update 30 seconds and not one less; ten minutes of outage delay every pending
 * update, and each arrives once when AniList is back.
 */
class TrackerOutageDeliveryTest {

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock();
  private final AniListFake anilist = new AniListFake();
  private final Map<String, Integer> ours = new HashMap<>();
  private final Vertx vertx = Vertx.vertx();
  private SqliteDatabase database;
  private TrackerStore store;
  private TrackerDelivery delivery;
  private long user;

  @BeforeEach
  void setUp() throws Exception {
    database = SqliteDatabase.open(dir.resolve("reader.db"));
    store = new SqliteTrackerStore(database);
    user = new SqliteUserStore(database).createUser("ann", "hash", "reader", clock.instant());
    TrackerTokenVault vault = new TrackerTokenVault(dir);
    anilist.signInAccepts("code", "anilist-token").acceptsSaves();
    AniListTracker client = new AniListTracker(WebClient.create(vertx), anilist.config(), clock);
    delivery = new TrackerDelivery(vertx, store, vault, Map.of("anilist", client),
        new TrackerPace(clock, Map.of("anilist", 90)), new TrackerSyncRules(clock), clock,
        (userId, series) -> new SeriesReading(List.of(String.valueOf(ours.get(series)))),
        (userId, tracker, why) -> { }, null);
    store.saveAccount(new TrackerAccount(user, "anilist", vault.seal(user, "anilist", new Secret("anilist-token")),
        null, clock.instant().plus(Duration.ofDays(365)), "101", "ann", false, "", clock.instant()));
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
    database.close();
    anilist.close();
  }

  /** The user finished {@code chapter} of the series AniList knows as {@code mediaId}. */
  private void read(long mediaId, int chapter) throws Exception {
    String series = "series-" + mediaId;
    anilist.notListed(mediaId, null);
    if (store.link(user, "anilist", series).isEmpty()) {
      store.saveLink(TrackerLink.of(user, "anilist", series, String.valueOf(mediaId), "", false, clock.instant()));
    }
    ours.put(series, chapter);
    store.requestUpdate(user, "anilist", series, clock.instant(), clock.instant());
  }

  private void deliver() throws Exception {
    delivery.deliverDue().await(20, TimeUnit.SECONDS);
  }

  @Test
  void aRateLimitWithRetryAfterThirtyDelaysTheUpdateThirtySecondsAndNotOneLess() throws Exception {
    read(30013, 3);
    anilist.rateLimited(30);
    deliver();
    int asked = anilist.requestCount();
    anilist.back();

    clock.advance(Duration.ofSeconds(29));
    deliver();
    assertThat(anilist.requestCount()).as("nothing sent before the 30 seconds are over").isEqualTo(asked);

    clock.advance(Duration.ofSeconds(1));
    deliver();
    assertThat(anilist.savedProgress(30013)).containsExactly(3);
  }

  @Test
  void tenMinutesOfOutageDelayEveryPendingUpdateAndEachArrivesOnceWhenAniListIsBack() throws Exception {
    read(30013, 3);
    read(30014, 7);
    read(30015, 1);
    anilist.down();
    Instant back = MutableClock.START.plus(Duration.ofMinutes(10));
    while (clock.instant().isBefore(back)) {
      deliver();
      clock.advance(Duration.ofSeconds(5));
    }
    assertThat(anilist.savedProgress(30013)).isEmpty();
    assertThat(store.pendingByTracker()).as("nothing lost while down").containsEntry("anilist", 3);
    anilist.back();

    while (clock.instant().isBefore(back.plus(Duration.ofMinutes(6)))) {
      deliver();
      clock.advance(Duration.ofSeconds(5));
    }

    assertThat(anilist.savedProgress(30013)).containsExactly(3);
    assertThat(anilist.savedProgress(30014)).containsExactly(7);
    assertThat(anilist.savedProgress(30015)).containsExactly(1);
    assertThat(store.pendingByTracker()).isEmpty();
  }
}
