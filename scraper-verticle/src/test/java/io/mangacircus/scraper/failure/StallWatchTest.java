package io.mangacircus.scraper.failure;

import io.mangacircus.testing.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StallWatchTest {


  private final MutableClock clock = new MutableClock();
  private final StallWatch watch = new StallWatch(Duration.ofMinutes(15), Duration.ofMinutes(3), clock);

  private static StallWatch.Observation at(long fingerprint) {
    return new StallWatch.Observation("j1", OptionalLong.of(fingerprint), Duration.ofSeconds(1));
  }

  @Test
  void aJobWhoseCheckpointDoesNotMoveFor15MinutesIsStalled() {
    assertThat(watch.tick(List.of(at(5)), false)).isEmpty();
    clock.advance(Duration.ofMinutes(14));
    assertThat(watch.tick(List.of(at(5)), false)).isEmpty();
    clock.advance(Duration.ofMinutes(1));
    assertThat(watch.tick(List.of(at(5)), false)).containsExactly("j1");
  }

  @Test
  void progressResetsTheClock() {
    watch.tick(List.of(at(5)), false);
    clock.advance(Duration.ofMinutes(10));
    watch.tick(List.of(at(6)), false);
    clock.advance(Duration.ofMinutes(10));

    assertThat(watch.tick(List.of(at(6)), false)).isEmpty();
  }

  @Test
  void aLongChapterDelayPlusGraceIsTheLimitWhenLonger() {
    StallWatch.Observation slow = new StallWatch.Observation("j1", OptionalLong.of(3), Duration.ofMinutes(20));
    watch.tick(List.of(slow), false);
    clock.advance(Duration.ofMinutes(22));
    assertThat(watch.tick(List.of(slow), false)).isEmpty();
    clock.advance(Duration.ofMinutes(1));
    assertThat(watch.tick(List.of(slow), false)).containsExactly("j1");
  }

  @Test
  void pausedTimeDoesNotCount() {
    watch.tick(List.of(at(5)), false);
    clock.advance(Duration.ofMinutes(10));
    watch.tick(List.of(), false);
    clock.advance(Duration.ofMinutes(60));
    watch.tick(List.of(at(5)), false);
    clock.advance(Duration.ofMinutes(10));

    assertThat(watch.tick(List.of(at(5)), false)).as("only 10 active minutes since it came back").isEmpty();
  }

  @Test
  void aDeliberatelyPausedQueueIsNotAStall() {
    watch.tick(List.of(at(5)), false);
    clock.advance(Duration.ofMinutes(20));

    assertThat(watch.tick(List.of(at(5)), true)).isEmpty();
    clock.advance(Duration.ofMinutes(5));
    assertThat(watch.tick(List.of(at(5)), false)).isEmpty();
  }

  @Test
  void aJobWhoseCheckpointCannotBeReadIsNotJudged() {
    StallWatch.Observation unreadable = new StallWatch.Observation("j1", OptionalLong.empty(), Duration.ZERO);
    watch.tick(List.of(unreadable), false);
    clock.advance(Duration.ofHours(2));

    assertThat(watch.tick(List.of(unreadable), false)).isEmpty();
  }
}
