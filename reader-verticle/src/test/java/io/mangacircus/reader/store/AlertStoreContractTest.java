package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * Readers' new-chapter alerts on each engine: the notifier hears of each user only with the asked series they
 * subscribed to, never of disabled users or users without a target; the subscription limit holds with callers at once.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class AlertStoreContractTest {

  @Parameter
  Engine engine;

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-12-01T10:00:00Z");
  private ContractDatabase database;
  private UserStore users;
  private AlertStore alerts;

  @BeforeEach
  void open() throws Exception {
    database = ContractDatabase.fresh(engine, dir);
    users = database.stores().users();
    alerts = database.stores().alerts();
  }

  @AfterEach
  void close() throws Exception {
    database.close();
  }

  @Test
  void eachSubscriberIsNamedOnlyWithTheAskedSeriesTheySubscribedTo() throws Exception {
    long alice = users.createUser("alice", "hash", "reader", now);
    long bob = users.createUser("bob", "hash", "reader", now);
    long carol = users.createUser("carol", "hash", "reader", now);
    long dave = users.createUser("dave", "hash", "reader", now);
    alerts.saveAlertTarget(alice, new AlertTarget("ntfy", "https://ntfy.sh", "alice-topic", ""), now);
    alerts.saveAlertTarget(bob, new AlertTarget("webhook", "https://hooks.example/bob", "", "b"), now);
    alerts.saveAlertTarget(carol, new AlertTarget("ntfy", "https://ntfy.sh", "carol", ""), now);
    alerts.setSeriesAlert(alice, "quiet-town", true, now);
    alerts.setSeriesAlert(alice, "circus-nights", true, now);
    alerts.setSeriesAlert(alice, "not-in-this-pass", true, now);
    alerts.setSeriesAlert(alice, "circus-nights", true, now);
    alerts.setSeriesAlert(bob, "quiet-town", true, now);
    alerts.setSeriesAlert(carol, "circus-nights", true, now);
    alerts.setSeriesAlert(dave, "circus-nights", true, now);
    users.setDisabled("carol", true);

    List<Subscriber> subscribers = alerts.subscribers(List.of("quiet-town", "circus-nights", "other", "quiet-town"));
    assertThat(subscribers).extracting(Subscriber::username).containsExactly("alice", "bob");
    assertThat(subscribers.get(0).series()).containsExactly("circus-nights", "quiet-town");
    assertThat(subscribers.get(0).target()).isEqualTo(new AlertTarget("ntfy", "https://ntfy.sh", "alice-topic", ""));
    assertThat(subscribers.get(1).series()).containsExactly("quiet-town");
    assertThat(subscribers.get(1).target()).isEqualTo(new AlertTarget("webhook", "https://hooks.example/bob", "",
        "b"));
    assertThat(alerts.subscribers(List.of())).isEmpty();

    alerts.setSeriesAlert(alice, "circus-nights", false, now);
    assertThat(alerts.seriesAlerts(alice)).containsExactly("not-in-this-pass", "quiet-town");
    assertThat(alerts.deleteAlertTarget(bob)).isTrue();
    assertThat(alerts.deleteAlertTarget(bob)).isFalse();
    assertThat(alerts.alertTarget(bob)).isEmpty();
    assertThat(alerts.subscribers(List.of("quiet-town"))).extracting(Subscriber::username).containsExactly("alice");
  }

  @Test
  void aSavedTargetReplacesTheOneBefore() throws Exception {
    long alice = users.createUser("alice", "hash", "reader", now);
    assertThat(alerts.alertTarget(alice)).isEmpty();
    alerts.saveAlertTarget(alice, new AlertTarget("ntfy", "https://ntfy.sh", "alice-topic", "tk"), now);
    alerts.saveAlertTarget(alice, new AlertTarget("webhook", "https://hooks.example/a", "", ""), now);
    assertThat(alerts.alertTarget(alice)).contains(new AlertTarget("webhook", "https://hooks.example/a", "", ""));
  }

  @Test
  void seriesAreListedInTheOrderOfTheirBytes() throws Exception {
    long alice = users.createUser("alice", "hash", "reader", now);
    for (String series : List.of("b-side", "Zebra", "a", "bside", "_under", "été")) {
      alerts.setSeriesAlert(alice, series, true, now);
    }
    assertThat(alerts.seriesAlerts(alice)).containsExactly("Zebra", "_under", "a", "b-side", "bside", "été");
  }

  @Test
  void aSubscriptionBeyondTheLimitIsRefusedAndOneAlreadyHeldStillCounts() throws Exception {
    long alice = users.createUser("alice", "hash", "reader", now);

    assertThat(alerts.addSeriesAlert(alice, "a", 2, now)).isTrue();
    assertThat(alerts.addSeriesAlert(alice, "b", 2, now)).isTrue();
    assertThat(alerts.addSeriesAlert(alice, "b", 2, now)).as("already subscribed").isTrue();
    assertThat(alerts.addSeriesAlert(alice, "c", 2, now)).as("beyond the limit").isFalse();
    assertThat(alerts.seriesAlerts(alice)).containsExactly("a", "b");
  }

  @Test
  void theLimitHoldsWhenManyCallersSubscribeAtOnce() throws Exception {
    long alice = users.createUser("alice", "hash", "reader", now);
    int max = 5;
    ExecutorService callers = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Boolean>> adds = IntStream.range(0, 40)
          .<Callable<Boolean>>mapToObj(i -> () -> alerts.addSeriesAlert(alice, "series-" + i, max, now)).toList();
      List<Boolean> answers = new ArrayList<>();
      for (Future<Boolean> answer : callers.invokeAll(adds)) {
        answers.add(answer.get());
      }
      assertThat(alerts.seriesAlerts(alice)).hasSize(max);
      assertThat(answers).filteredOn(Boolean::booleanValue).hasSize(max);
    } finally {
      callers.shutdownNow();
    }
  }
}
