package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers' new-chapter alerts in a real reader.db: the notifier hears of each user only with the asked series they
 * subscribed to, never of disabled users or users without a target.
 */
class SqliteAlertStoreTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void eachSubscriberIsNamedOnlyWithTheAskedSeriesTheySubscribedTo() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      UserStore users = new SqliteUserStore(db);
      AlertStore alerts = new SqliteAlertStore(db);
      long alice = users.createUser("alice", "x", "reader", now);
      long bob = users.createUser("bob", "x", "reader", now);
      long carol = users.createUser("carol", "x", "reader", now);
      long dave = users.createUser("dave", "x", "reader", now);
      alerts.saveAlertTarget(alice, new AlertTarget("ntfy", "https://ntfy.sh", "alice-topic", ""), now);
      alerts.saveAlertTarget(bob, new AlertTarget("webhook", "https://hooks.example/bob", "", "b"), now);
      alerts.saveAlertTarget(carol, new AlertTarget("ntfy", "https://ntfy.sh", "carol", ""), now);
      alerts.setSeriesAlert(alice, "circus-nights", true, now);
      alerts.setSeriesAlert(alice, "quiet-town", true, now);
      alerts.setSeriesAlert(alice, "not-in-this-pass", true, now);
      alerts.setSeriesAlert(bob, "quiet-town", true, now);
      alerts.setSeriesAlert(carol, "circus-nights", true, now);
      alerts.setSeriesAlert(dave, "circus-nights", true, now);
      users.setDisabled("carol", true);

      List<Subscriber> subscribers = alerts.subscribers(List.of("circus-nights", "quiet-town", "other"));
      assertThat(subscribers).extracting(Subscriber::username).containsExactly("alice", "bob");
      assertThat(subscribers.get(0).series()).containsExactly("circus-nights", "quiet-town");
      assertThat(subscribers.get(0).target().topic()).isEqualTo("alice-topic");
      assertThat(subscribers.get(1).series()).containsExactly("quiet-town");

      alerts.setSeriesAlert(alice, "circus-nights", false, now);
      assertThat(alerts.seriesAlerts(alice)).containsExactly("not-in-this-pass", "quiet-town");
      alerts.deleteAlertTarget(bob);
      assertThat(alerts.subscribers(List.of("quiet-town"))).extracting(Subscriber::username)
          .containsExactly("alice");
    }
  }

  @Test
  void aSubscriptionBeyondTheLimitIsRefusedAndOneAlreadyHeldStillCounts() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      long alice = new SqliteUserStore(db).createUser("alice", "x", "reader", now);
      AlertStore alerts = new SqliteAlertStore(db);

      assertThat(alerts.addSeriesAlert(alice, "a", 2, now)).isTrue();
      assertThat(alerts.addSeriesAlert(alice, "b", 2, now)).isTrue();
      assertThat(alerts.addSeriesAlert(alice, "b", 2, now)).as("already subscribed").isTrue();
      assertThat(alerts.addSeriesAlert(alice, "c", 2, now)).as("beyond the limit").isFalse();
      assertThat(alerts.seriesAlerts(alice)).containsExactly("a", "b");
    }
  }
}
