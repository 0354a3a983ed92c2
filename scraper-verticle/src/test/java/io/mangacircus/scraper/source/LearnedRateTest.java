package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mangacircus.testing.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LearnedRateTest {

  private final MutableClock clock = new MutableClock();
  private final LearnedRate rate = new LearnedRate(4.0);

  @Test
  void withoutRefusalsTheConfiguredRateHolds() {
    clock.advance(Duration.ofHours(1));

    assertThat(rate.current(clock.instant())).isEqualTo(4.0);
  }

  @Test
  void each429HalvesTheRate() {
    rate.refused(clock.instant());
    assertThat(rate.current(clock.instant())).isEqualTo(2.0);
    rate.refused(clock.instant());
    assertThat(rate.current(clock.instant())).isEqualTo(1.0);
    assertThat(rate.gap(clock.instant())).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void eachCleanMinuteRaisesItByATenthButNeverAboveTheConfiguredRate() {
    rate.refused(clock.instant());
    clock.advance(Duration.ofSeconds(59));
    assertThat(rate.current(clock.instant())).isEqualTo(2.0);
    clock.advance(Duration.ofSeconds(1));
    assertThat(rate.current(clock.instant())).isCloseTo(2.2, within(1e-9));
    clock.advance(Duration.ofMinutes(1));
    assertThat(rate.current(clock.instant())).isCloseTo(2.42, within(1e-9));
    clock.advance(Duration.ofHours(1));
    assertThat(rate.current(clock.instant())).isEqualTo(4.0);
  }

  @Test
  void aRefusalAfterSomeCleanMinutesHalvesFromWhereTheRateGotTo() {
    rate.refused(clock.instant());
    clock.advance(Duration.ofMinutes(2));
    rate.refused(clock.instant());

    assertThat(rate.current(clock.instant())).isCloseTo(1.21, within(1e-9));
  }
}
