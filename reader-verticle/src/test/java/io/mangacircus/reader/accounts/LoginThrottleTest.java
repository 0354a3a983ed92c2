package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {

  private Instant now = Instant.parse("2026-11-29T10:00:00Z");
  private final LoginThrottle throttle = new LoginThrottle(5, Duration.ofMinutes(15), () -> now);

  @Test
  void fiveFailuresLockThatAddressOutOfThatUserUntilTheWindowPasses() {
    for (int i = 0; i < 5; i++) {
      assertThat(throttle.waitFor("10.0.0.1", "bob")).isZero();
      throttle.failed("10.0.0.1", "bob");
    }

    assertThat(throttle.waitFor("10.0.0.1", "bob")).isEqualTo(Duration.ofMinutes(15));
    assertThat(throttle.waitFor("10.0.0.1", "alice")).as("the address may still try another user").isZero();
    now = now.plus(Duration.ofMinutes(15));
    assertThat(throttle.waitFor("10.0.0.1", "bob")).isZero();
  }

  @Test
  void failuresFromOneAddressNeverLockTheUserOutForAnotherAddress() {
    for (int i = 0; i < 20; i++) {
      throttle.failed("10.0.0.1", "admin");
    }

    assertThat(throttle.waitFor("10.0.0.2", "admin")).as("admin from another address").isZero();
  }

  @Test
  void anAddressTryingManyUsersIsSlowedWithADelayThatDoubles() {
    for (int i = 0; i < LoginThrottle.ADDRESS_FREE_ATTEMPTS; i++) {
      assertThat(throttle.waitFor("10.0.0.1", "user-" + i)).isZero();
      throttle.failed("10.0.0.1", "user-" + i);
    }
    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Duration wait = throttle.waitFor("10.0.0.1", "someone-" + i);
      delays.add(wait);
      now = now.plus(wait);
      throttle.failed("10.0.0.1", "someone-" + i);
    }

    assertThat(delays).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
        Duration.ofSeconds(8));
    assertThat(throttle.waitFor("10.0.0.2", "someone-9")).as("other addresses are not slowed").isZero();
  }

  @Test
  void theAddressDelayStopsGrowingAtItsCap() {
    for (int i = 0; i < LoginThrottle.ADDRESS_FREE_ATTEMPTS + 40; i++) {
      throttle.failed("10.0.0.1", "user-" + i);
    }

    assertThat(throttle.waitFor("10.0.0.1", "next")).isEqualTo(LoginThrottle.ADDRESS_MAX_DELAY);
  }

  @Test
  void attemptsBegunAtOnceAreCountedBeforeAnyIsChecked() {
    List<LoginThrottle.Attempt> begun = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      begun.add(throttle.begin("10.0.0.1", "bob"));
    }

    assertThat(begun).filteredOn(LoginThrottle.Attempt::admitted).hasSize(5);
    assertThat(begun.get(5).retryAfter()).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void aSuccessfulAttemptIsNotCountedAndForgetsThatAddressesFailuresForThatUser() {
    for (int i = 0; i < 4; i++) {
      throttle.failed(throttle.begin("10.0.0.1", "bob"));
    }
    throttle.failed(throttle.begin("10.0.0.3", "bob"));
    throttle.succeeded(throttle.begin("10.0.0.1", "bob"));

    for (int i = 0; i < 4; i++) {
      assertThat(throttle.begin("10.0.0.1", "bob").admitted()).as("attempt %d after the success", i).isTrue();
    }
    assertThat(throttle.waitFor("10.0.0.3", "bob")).as("another address's failures stay").isZero();
    throttle.failed("10.0.0.3", "bob");
    throttle.failed("10.0.0.3", "bob");
    throttle.failed("10.0.0.3", "bob");
    throttle.failed("10.0.0.3", "bob");
    assertThat(throttle.waitFor("10.0.0.3", "bob")).isPositive();
  }

  @Test
  void anAbandonedAttemptIsNotCounted() {
    for (int i = 0; i < 20; i++) {
      throttle.abandoned(throttle.begin("10.0.0.1", "bob"));
    }

    assertThat(throttle.waitFor("10.0.0.1", "bob")).isZero();
  }

  // ---- several readers: each tells its steps, the others apply them ----

  private final LoginThrottle other = new LoginThrottle(5, Duration.ofMinutes(15), () -> now);

  private void joined() {
    throttle.tell(other::apply);
    other.tell(throttle::apply);
  }

  private static void failOnce(LoginThrottle on, String client, String user) {
    LoginThrottle.Attempt attempt = on.begin(client, user);
    assertThat(attempt.admitted()).as("attempt admitted").isTrue();
    on.failed(attempt);
  }

  @Test
  void fiveFailuresSpreadOverTwoReadersLockThatAddressOutOfThatUserOnBoth() {
    joined();
    for (int i = 0; i < 5; i++) {
      failOnce(i % 2 == 0 ? throttle : other, "10.0.0.1", "bob");
    }

    assertThat(throttle.begin("10.0.0.1", "bob").retryAfter()).isEqualTo(Duration.ofMinutes(15));
    assertThat(other.begin("10.0.0.1", "bob").retryAfter()).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void aSuccessOnOneReaderForgetsThatPairsFailuresOnTheOther() {
    joined();
    for (int i = 0; i < 4; i++) {
      failOnce(other, "10.0.0.1", "bob");
    }
    throttle.succeeded(throttle.begin("10.0.0.1", "bob"));

    failOnce(other, "10.0.0.1", "bob");
    assertThat(other.waitFor("10.0.0.1", "bob")).as("one failure since the success").isZero();
  }

  @Test
  void anAttemptAbandonedOnOneReaderIsNotCountedOnTheOther() {
    joined();
    for (int i = 0; i < 4; i++) {
      failOnce(throttle, "10.0.0.1", "bob");
    }
    throttle.abandoned(throttle.begin("10.0.0.1", "bob"));

    assertThat(other.waitFor("10.0.0.1", "bob")).isZero();
    failOnce(other, "10.0.0.1", "bob");
    assertThat(throttle.waitFor("10.0.0.1", "bob")).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void stepsAppliedFromAnotherReaderAreNotToldAgain() {
    List<LoginThrottle.Step> toldByOther = new ArrayList<>();
    throttle.tell(other::apply);
    other.tell(toldByOther::add);

    failOnce(throttle, "10.0.0.1", "bob");
    throttle.succeeded(throttle.begin("10.0.0.1", "bob"));

    assertThat(toldByOther).isEmpty();
    failOnce(other, "10.0.0.1", "bob");
    assertThat(toldByOther).singleElement().satisfies(step -> {
      assertThat(step.kind()).isEqualTo(LoginThrottle.Kind.BEGUN);
      assertThat(step.at()).isEqualTo(now);
    });
  }

  @Test
  void aFailureToldLateCountsFromWhenItHappenedNotFromWhenItArrived() {
    Instant early = now;
    now = now.plus(Duration.ofMinutes(10));
    for (int i = 0; i < 4; i++) {
      throttle.failed("10.0.0.1", "bob");
    }

    throttle.apply(new LoginThrottle.Step("10.0.0.1", "bob", early, LoginThrottle.Kind.BEGUN));

    assertThat(throttle.waitFor("10.0.0.1", "bob")).as("locked until the earliest failure leaves the window")
        .isEqualTo(Duration.ofMinutes(5));
  }
}
