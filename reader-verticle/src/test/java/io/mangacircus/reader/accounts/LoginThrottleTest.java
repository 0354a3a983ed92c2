package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {

  private Instant now = Instant.parse("2026-11-29T10:00:00Z");
  private final LoginThrottle throttle = new LoginThrottle(5, Duration.ofMinutes(15), () -> now);

  @Test
  void fiveFailuresLockTheUserAndTheAddressUntilTheWindowPasses() {
    for (int i = 0; i < 5; i++) {
      assertThat(throttle.waitFor("10.0.0.1", "bob")).isZero();
      throttle.failed("10.0.0.1", "bob");
    }

    assertThat(throttle.waitFor("10.0.0.1", "alice")).as("the address is locked").isPositive();
    assertThat(throttle.waitFor("10.0.0.2", "bob")).as("the user is locked from anywhere").isPositive();
    assertThat(throttle.waitFor("10.0.0.2", "alice")).isZero();
    now = now.plus(Duration.ofMinutes(15));
    assertThat(throttle.waitFor("10.0.0.1", "bob")).isZero();
  }

  @Test
  void aSuccessfulLoginClearsTheUsersFailures() {
    for (int i = 0; i < 4; i++) {
      throttle.failed("10.0.0.1", "bob");
    }
    throttle.succeeded("bob");
    throttle.failed("10.0.0.3", "bob");

    assertThat(throttle.waitFor("10.0.0.3", "bob")).isZero();
  }
}
