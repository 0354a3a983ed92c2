package io.mangacircus.scraper.failure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class SystemicParserWatchTest {

  private Instant now = Instant.parse("2026-11-29T10:00:00Z");
  private final SystemicParserWatch watch = new SystemicParserWatch(2, Duration.ofHours(1), () -> now);

  @Test
  void twoDifferentJobsOfOneSourceWithinAnHourAreSystemicOnce() {
    assertThat(watch.record("mangapill", "j1")).isFalse();
    now = now.plus(Duration.ofMinutes(59));
    assertThat(watch.record("mangapill", "j2")).isTrue();
    assertThat(watch.record("mangapill", "j3")).as("reported once, not on every further job").isFalse();
  }

  @Test
  void theSameJobTwiceIsNotSystemic() {
    watch.record("mangapill", "j1");

    assertThat(watch.record("mangapill", "j1")).isFalse();
  }

  @Test
  void jobsOfDifferentSourcesOrMoreThanAnHourApartAreNotSystemic() {
    watch.record("mangapill", "j1");
    assertThat(watch.record("demo", "j2")).isFalse();
    now = now.plus(Duration.ofMinutes(61));
    assertThat(watch.record("mangapill", "j3")).isFalse();
  }
}
