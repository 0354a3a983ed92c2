package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When a failed tracker update is tried again, by the kind of failure. */
class TrackerBackoffTest {

  @Test
  void aRateLimitWaitsExactlyItsRetryAfterOrAMinuteWhenItNamedNone() {
    assertThat(TrackerBackoff.delay(new TrackerFailure("anilist", TrackerFailure.Kind.RATE_LIMITED, "429",
        Duration.ofSeconds(30)), 1)).contains(Duration.ofSeconds(30));
    assertThat(TrackerBackoff.delay(new TrackerFailure("anilist", TrackerFailure.Kind.RATE_LIMITED, "429",
        Duration.ofSeconds(30)), 7)).as("not lengthened by earlier tries").contains(Duration.ofSeconds(30));
    assertThat(TrackerBackoff.delay(new TrackerFailure("anilist", TrackerFailure.Kind.RATE_LIMITED, "429"), 1))
        .contains(Duration.ofSeconds(60));
  }

  @Test
  void aTrackerDownIsTriedAfterFifteenSecondsDoublingPerTryUpToFiveMinutes() {
    TrackerFailure down = new TrackerFailure("kitsu", TrackerFailure.Kind.UNAVAILABLE, "answered 503");
    assertThat(TrackerBackoff.delay(down, 1)).contains(Duration.ofSeconds(15));
    assertThat(TrackerBackoff.delay(down, 2)).contains(Duration.ofSeconds(30));
    assertThat(TrackerBackoff.delay(down, 3)).contains(Duration.ofSeconds(60));
    assertThat(TrackerBackoff.delay(down, 4)).contains(Duration.ofSeconds(120));
    assertThat(TrackerBackoff.delay(down, 5)).contains(Duration.ofSeconds(240));
    assertThat(TrackerBackoff.delay(down, 6)).contains(Duration.ofMinutes(5));
    assertThat(TrackerBackoff.delay(down, 1_000)).contains(Duration.ofMinutes(5));
    assertThat(TrackerBackoff.delay(down, 0)).as("no try counted yet is the first wait").contains(Duration.ofSeconds(15));
  }

  @Test
  void aSignInToRenewWaitsForTheUserCheckedHourlyAndARefusalIsNotTriedAgain() {
    assertThat(TrackerBackoff.delay(new TrackerFailure("anilist", TrackerFailure.Kind.SIGN_IN_AGAIN, "401"), 1))
        .contains(Duration.ofHours(1));
    assertThat(TrackerBackoff.delay(new TrackerFailure("anilist", TrackerFailure.Kind.REFUSED, "404"), 1)).isEmpty();
  }
}
