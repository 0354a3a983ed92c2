package io.mangacircus.support.supervision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff = new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(60));

  @Test
  void delayDoublesWithEveryFailure() {
    assertThat(backoff.delayFor(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(backoff.delayFor(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(backoff.delayFor(3)).isEqualTo(Duration.ofSeconds(4));
    assertThat(backoff.delayFor(6)).isEqualTo(Duration.ofSeconds(32));
  }

  @Test
  void delayIsCappedAtTheMaximum() {
    assertThat(backoff.delayFor(7)).isEqualTo(Duration.ofSeconds(60));
    assertThat(backoff.delayFor(10_000)).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void firstFailureUsesTheInitialDelayEvenForNonsenseCounts() {
    assertThat(backoff.delayFor(0)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void nonsensicalSettingsAreRefused() {
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(5), 2.0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(10)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
