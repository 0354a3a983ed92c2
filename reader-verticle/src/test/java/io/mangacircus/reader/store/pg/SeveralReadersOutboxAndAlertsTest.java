package io.mangacircus.reader.store.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.StoreEngines;
import io.mangacircus.reader.store.TrackerUpdate;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two readers on one PostgreSQL database, each with its own Vert.x and pool, writing at once: the tracker outbox's
 * versions never repeat across them, and a user's alert subscriptions never pass the limit whichever reader adds them.
 */
class SeveralReadersOutboxAndAlertsTest {

  private final Instant now = Instant.parse("2026-12-04T10:00:00Z");
  private final Vertx vertxA = Vertx.vertx();
  private final Vertx vertxB = Vertx.vertx();
  private final ExecutorService workers = Executors.newFixedThreadPool(8);

  @AfterEach
  void close() {
    workers.shutdownNow();
    vertxA.close().await();
    vertxB.close().await();
  }

  @Test
  void versionsNeverRepeatAndTheAlertLimitHoldsAcrossReaders() throws Exception {
    PostgresTarget target = StoreEngines.target(TestPostgres.freshDatabase());
    try (ReaderStores a = ReaderStores.openPostgres(vertxA, target);
        ReaderStores b = ReaderStores.openPostgres(vertxB, target)) {
      long ann = a.users().createUser("ann", "hash", "reader", now);
      int max = 5;
      List<Callable<Void>> requests = new ArrayList<>();
      List<Callable<Boolean>> subscriptions = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        ReaderStores reader = i % 2 == 0 ? a : b;
        String series = "series-" + i;
        requests.add(() -> {
          reader.trackers().requestUpdate(ann, "anilist", series, now, now);
          return null;
        });
        subscriptions.add(() -> reader.alerts().addSeriesAlert(ann, series, max, now));
      }
      for (Future<Void> done : workers.invokeAll(requests)) {
        done.get();
      }
      long subscribed = 0;
      for (Future<Boolean> done : workers.invokeAll(subscriptions)) {
        subscribed += done.get() ? 1 : 0;
      }

      assertThat(b.trackers().dueUpdates(now, 100)).extracting(TrackerUpdate::version).hasSize(40)
          .doesNotHaveDuplicates();
      assertThat(a.alerts().seriesAlerts(ann)).hasSize(max);
      assertThat(subscribed).as("subscriptions answered as added").isEqualTo(max);
    }
  }
}
