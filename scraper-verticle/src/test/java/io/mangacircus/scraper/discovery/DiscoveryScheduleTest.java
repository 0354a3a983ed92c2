package io.mangacircus.scraper.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class DiscoveryScheduleTest {

  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  @Test
  void laterTodayWhenTheTimeHasNotComeYet() {
    Instant now = Instant.parse("2026-11-29T01:00:00Z");

    assertThat(DiscoverySchedule.nextRun(now, LocalTime.of(3, 30), PARIS))
        .isEqualTo(Instant.parse("2026-11-29T02:30:00Z"));
  }

  @Test
  void tomorrowOnceTheTimeHasPassedOrIsNow() {
    assertThat(DiscoverySchedule.nextRun(Instant.parse("2026-11-29T02:30:00Z"), LocalTime.of(3, 30), PARIS))
        .isEqualTo(Instant.parse("2026-11-30T02:30:00Z"));
  }

  @Test
  void aTimeSkippedBySummerTimeRunsRightAfterTheJump() {
    Instant night = Instant.parse("2026-03-29T00:00:00Z");

    assertThat(DiscoverySchedule.nextRun(night, LocalTime.of(2, 30), PARIS))
        .as("02:30 does not exist that night in Paris; it runs at 03:30 local")
        .isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
  }
}
