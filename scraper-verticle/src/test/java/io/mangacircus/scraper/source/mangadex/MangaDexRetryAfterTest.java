package io.mangacircus.scraper.source.mangadex;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MangaDexRetryAfterTest {

  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

  private static String epoch(long secondsFromNow) {
    return String.valueOf(NOW.getEpochSecond() + secondsFromNow);
  }

  @Test
  void retryAfterInSecondsIsTaken() {
    assertThat(MangaDexSource.retryAfter(" 12 ", null, NOW)).contains(Duration.ofSeconds(12));
  }

  @Test
  void retryAfterAsAnHttpDateIsTaken() {
    assertThat(MangaDexSource.retryAfter("Sun, 29 Nov 2026 10:01:30 GMT", null, NOW)).contains(Duration.ofSeconds(90));
  }

  @Test
  void mangaDexsEpochSecondsAreTaken() {
    assertThat(MangaDexSource.retryAfter(null, epoch(45), NOW)).contains(Duration.ofSeconds(45));
  }

  @Test
  void whenBothAreThereTheLongerWins() {
    assertThat(MangaDexSource.retryAfter("5", epoch(120), NOW)).contains(Duration.ofSeconds(120));
    assertThat(MangaDexSource.retryAfter("300", epoch(120), NOW)).contains(Duration.ofSeconds(300));
  }

  @Test
  void aTimeAlreadyPassedStillWaitsOneSecond() {
    assertThat(MangaDexSource.retryAfter(null, epoch(-30), NOW)).contains(Duration.ofSeconds(1));
    assertThat(MangaDexSource.retryAfter("0", null, NOW)).contains(Duration.ofSeconds(1));
  }

  @Test
  void noOrUnreadableHeadersNameNoWait() {
    assertThat(MangaDexSource.retryAfter(null, null, NOW)).isEmpty();
    assertThat(MangaDexSource.retryAfter("soon", "tomorrow", NOW)).isEmpty();
  }
}
