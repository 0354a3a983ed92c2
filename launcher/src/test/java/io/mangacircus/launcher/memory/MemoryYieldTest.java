package io.mangacircus.launcher.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.memory.MemoryYield.Decision;
import io.mangacircus.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryYieldTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
  private final MemoryYield yield = new MemoryYield(92, 80, Duration.ofSeconds(300), clock);

  private List<Decision> feed(double... readings) {
    List<Decision> decisions = new ArrayList<>();
    for (double reading : readings) {
      decisions.add(yield.observe(reading));
      clock.advance(Duration.ofSeconds(60));
    }
    return decisions;
  }

  @Test
  void pausesAtTheHighWatermarkAndResumesOnlyBelowTheLowOneAfterTheCooldown() {
    List<Decision> decisions = feed(70, 91.9, 92, 95, 85, 79, 79, 79, 79, 70);

    // One reading a minute: the pause comes at 2 min; the cooldown ends at 7 min, when 79 % is below the low mark.
    assertThat(decisions).containsExactly(Decision.NONE, Decision.NONE, Decision.PAUSE, Decision.NONE, Decision.NONE,
        Decision.NONE, Decision.NONE, Decision.RESUME, Decision.NONE, Decision.NONE);
  }

  @Test
  void readingsBetweenTheWatermarksNeitherPauseNorResume() {
    assertThat(feed(85, 90, 91)).containsOnly(Decision.NONE);
    feed(93);
    clock.advance(Duration.ofMinutes(30));
    assertThat(feed(80, 85, 91.5)).as("at or above the low watermark stays paused").containsOnly(Decision.NONE);
    assertThat(yield.yielding()).isTrue();
  }

  @Test
  void theCooldownHoldsEvenWhenPressureDropsAtOnce() {
    assertThat(yield.observe(97)).isEqualTo(Decision.PAUSE);
    clock.advance(Duration.ofSeconds(299));
    assertThat(yield.observe(10)).isEqualTo(Decision.NONE);
    clock.advance(Duration.ofSeconds(1));
    assertThat(yield.observe(10)).isEqualTo(Decision.RESUME);
  }

  @Test
  void usedPercentComesFromMemAvailableNotMemFree() {
    String meminfo = "MemTotal:        8000000 kB\nMemFree:          100000 kB\nMemAvailable:    2000000 kB\n";

    assertThat(MemInfoReader.usedPercent(meminfo)).hasValue(75.0);
    assertThat(MemInfoReader.usedPercent("MemTotal: 100 kB\n")).isEmpty();
  }
}
