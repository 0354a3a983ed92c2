package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.testing.MutableClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each tracker's requests spaced within its limit, and held as a whole while it asked for a pause or is down. */
class TrackerPaceTest {

  private final MutableClock clock = new MutableClock();
  private final TrackerPace pace = new TrackerPace(clock, Map.of("anilist", 90, "kitsu", 30));

  @Test
  void anUpdateTakesTwoRequestSlotsOfItsTrackersInterval() {
    assertThat(pace.interval("anilist")).isEqualTo(Duration.ofMillis(667));
    assertThat(pace.tryReserve("anilist")).isTrue();
    assertThat(pace.tryReserve("anilist")).isFalse();
    assertThat(pace.nextFree("anilist")).isEqualTo(MutableClock.START.plusMillis(1334));
    assertThat(pace.tryReserve("kitsu")).as("another tracker has its own pace").isTrue();

    clock.advance(Duration.ofMillis(1333));
    assertThat(pace.tryReserve("anilist")).isFalse();
    clock.advance(Duration.ofMillis(1));
    assertThat(pace.tryReserve("anilist")).isTrue();
    assertThat(pace.interval("mangaupdates")).as("a tracker with no limit given").isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aPauseHoldsEveryUpdateOfThatTrackerUntilItEndsAndIsNeverShortened() {
    pace.pauseUntil("anilist", MutableClock.START.plusSeconds(30));
    pace.pauseUntil("anilist", MutableClock.START.plusSeconds(10));

    clock.advance(Duration.ofSeconds(29));
    assertThat(pace.tryReserve("anilist")).isFalse();
    assertThat(pace.tryReserve("kitsu")).isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(pace.tryReserve("anilist")).isTrue();
  }

  @Test
  void aTrackerFoundDownIsHeldForTheBackoffOfItsFailuresInARowUntilItAnswers() {
    assertThat(pace.down("kitsu")).isEqualTo(MutableClock.START.plusSeconds(15));
    clock.advance(Duration.ofSeconds(15));
    assertThat(pace.down("kitsu")).isEqualTo(MutableClock.START.plusSeconds(45));
    clock.advance(Duration.ofSeconds(30));
    assertThat(pace.tryReserve("kitsu")).isTrue();
    pace.answered("kitsu");
    assertThat(pace.down("kitsu")).as("a new outage starts over").isEqualTo(clock.instant().plusSeconds(15));
  }

  @Test
  void aTokenRenewalCountsAsOneMoreRequest() {
    assertThat(pace.tryReserve("kitsu")).isTrue();
    pace.spendExtra("kitsu");
    assertThat(pace.nextFree("kitsu")).isEqualTo(MutableClock.START.plusSeconds(6));
  }

  @Test
  void aLimitBelowOneIsRefusedWithTheTrackersName() {
    assertThatThrownBy(() -> new TrackerPace(clock, Map.of("kitsu", 0))).hasMessageContaining("kitsu");
  }
}
