package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.support.supervision.Backoff;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.mangacircus.testing.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Dedup, rate limit, backoff and the outbox bound, decided without I/O on a fake clock. */
class DeliveryDecisionsTest {

  private final MutableClock clock = new MutableClock();

  private Notification incident(String key) {
    return new Notification("incident", key, "t " + key, "m", 4, List.of("warning"), "", clock.instant(), 0);
  }

  private static Destination ntfy(String name, Set<String> events) {
    return Destination.of(new NotificationsConfig.Destination(name, "ntfy", "http://ntfy.local", "alerts", "", events,
        30));
  }

  private Dispatcher dispatcher(int outboxMax, int perHour, int maxAttempts) {
    return new Dispatcher(List.of(ntfy("phone", null)), Map.of("phone", perHour), new Outbox(outboxMax),
        new Deduplicator(Duration.ofMinutes(15), clock),
        new Backoff(Duration.ofSeconds(10), 2.0, Duration.ofSeconds(900)), maxAttempts, clock);
  }

  @Test
  void theSameKeyWithinFifteenMinutesIsOneMessageAndOneSummaryWithTheCount() {
    Dispatcher d = dispatcher(100, 100, 5);
    for (int i = 0; i < 5; i++) {
      d.accept(incident("incident:http:demo:j1"));
      clock.advance(Duration.ofMinutes(1));
    }
    List<Delivery> first = d.tick().send();
    assertThat(first).hasSize(1);
    d.succeeded(first.get(0));
    clock.advance(Duration.ofMinutes(9));
    assertThat(d.tick().send()).as("the window has not ended yet").isEmpty();
    clock.advance(Duration.ofMinutes(1));
    List<Delivery> summary = d.tick().send();
    assertThat(summary).hasSize(1);
    assertThat(summary.get(0).notification().repeats()).isEqualTo(4);
    assertThat(summary.get(0).notification().title()).contains("4 more in 15 min");
    d.succeeded(summary.get(0));
    d.accept(incident("incident:http:demo:j1"));
    assertThat(d.tick().send()).as("after the window a new one goes out at once").hasSize(1);
  }

  @Test
  void differentKeysAreNotDeduplicated() {
    Dispatcher d = dispatcher(100, 100, 5);
    d.accept(incident("a"));
    d.accept(incident("b"));
    assertThat(d.tick().send()).hasSize(2);
  }

  @Test
  void aDestinationSendsAtMostItsRatePerHourAndTheRestWaitsNotDropped() {
    Dispatcher d = dispatcher(100, 3, 5);
    for (int i = 0; i < 5; i++) {
      d.accept(incident("k" + i));
    }
    List<Delivery> now = d.tick().send();
    assertThat(now).hasSize(3);
    now.forEach(d::succeeded);
    assertThat(d.tick().send()).isEmpty();
    assertThat(d.waiting()).isEqualTo(2);
    clock.advance(Duration.ofMinutes(59));
    assertThat(d.tick().send()).isEmpty();
    clock.advance(Duration.ofMinutes(1));
    assertThat(d.tick().send()).hasSize(2);
    assertThat(d.dropped()).isZero();
  }

  @Test
  void aFailedDeliveryIsRetriedAfterBackoffAndGivenUpAfterTheLastAttempt() {
    Dispatcher d = dispatcher(100, 100, 3);
    d.accept(incident("k"));
    Delivery first = d.tick().send().get(0);
    assertThat(d.tick().send()).as("in flight: not sent twice").isEmpty();
    assertThat(d.failed(first)).isEqualTo(Dispatcher.Failure.RETRY);
    clock.advance(Duration.ofSeconds(9));
    assertThat(d.tick().send()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    Delivery second = d.tick().send().get(0);
    assertThat(second.attempts()).isEqualTo(1);
    assertThat(d.failed(second)).isEqualTo(Dispatcher.Failure.RETRY);
    clock.advance(Duration.ofSeconds(19));
    assertThat(d.tick().send()).as("backoff doubled to 20 s").isEmpty();
    clock.advance(Duration.ofSeconds(1));
    Delivery third = d.tick().send().get(0);
    assertThat(d.failed(third)).isEqualTo(Dispatcher.Failure.GIVEN_UP);
    assertThat(d.waiting()).isZero();
  }

  @Test
  void aFullOutboxDropsTheOldestAndCountsIt() {
    Dispatcher d = dispatcher(3, 100, 5);
    for (int i = 0; i < 5; i++) {
      d.accept(incident("k" + i));
      clock.advance(Duration.ofSeconds(1));
    }
    assertThat(d.dropped()).isEqualTo(2);
    assertThat(d.tick().send()).extracting(x -> x.notification().key()).containsExactly("k2", "k3", "k4");
  }

  @Test
  void eachDestinationReceivesOnlyTheKindsItChose() {
    Dispatcher d = new Dispatcher(List.of(ntfy("all", null), ntfy("incidents-only", Set.of("incident"))),
        Map.of(), new Outbox(10), new Deduplicator(Duration.ofMinutes(15), clock),
        new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(2)), 3, clock);
    d.accept(incident("i"));
    d.accept(new Notification("circuit", "c", "t", "m", 4, List.of(), "", clock.instant(), 0));
    assertThat(d.tick().send()).extracting(x -> x.destination() + ":" + x.notification().kind())
        .containsExactlyInAnyOrder("all:incident", "incidents-only:incident", "all:circuit");
  }

  @Test
  void changesAreReportedOnceForPersisting() {
    Dispatcher d = dispatcher(10, 10, 3);
    assertThat(d.takeChanges()).isEmpty();
    d.accept(incident("k"));
    assertThat(d.takeChanges()).hasValueSatisfying(list -> assertThat(list).hasSize(1));
    assertThat(d.takeChanges()).isEmpty();
    d.succeeded(d.tick().send().get(0));
    assertThat(d.takeChanges()).hasValueSatisfying(list -> assertThat(list).isEmpty());
  }

  @Test
  void aDestinationRemovedInSettingsGetsNothingMoreAndItsWaitingMessagesAreGivenUp() {
    Dispatcher d = dispatcher(100, 100, 5);
    d.accept(incident("a"));
    d.replaceDestinations(List.of(ntfy("laptop", null)), Map.of("laptop", 30));
    Dispatcher.Tick tick = d.tick();
    assertThat(tick.gone()).extracting(Delivery::destination).containsExactly("phone");
    d.accept(incident("b"));
    assertThat(d.tick().send()).extracting(Delivery::destination).containsExactly("laptop");
  }

  @Test
  void aReadersAlertGoesOnlyToTheirOwnTargetWithItsOwnRateLimit() {
    Dispatcher d = dispatcher(100, 100, 5);
    NotificationsConfig.Destination alice = new NotificationsConfig.Destination("reader:alice", "ntfy",
        "http://ntfy.local", "alice-topic", "", Set.of("new-chapters"), 2);
    for (int i = 0; i < 3; i++) {
      d.acceptFor(new Notification("new-chapters", "k" + i, "3 new chapters of X", "m", 3, List.of(), "",
          clock.instant(), 0), alice);
    }
    List<Delivery> sent = d.tick().send();
    assertThat(sent).hasSize(2).allSatisfy(x -> assertThat(x.destination()).isEqualTo("reader:alice"));
    assertThat(d.destination(sent.get(0)).orElseThrow().request(sent.get(0).notification()).url())
        .isEqualTo("http://ntfy.local/alice-topic");
    assertThat(d.waiting()).as("the third waits for alice's rate limit").isEqualTo(3);
  }
}
