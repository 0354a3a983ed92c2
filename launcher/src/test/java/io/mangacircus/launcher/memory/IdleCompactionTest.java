package io.mangacircus.launcher.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdleCompactionTest {

  private static final long TEN_SECONDS = 10_000_000_000L;
  private static final long BUSY = TEN_SECONDS;           // one core for the whole interval
  private static final long QUIET = TEN_SECONDS / 100;     // 1 % of one core

  @Test
  void theFirstQuietIntervalAfterStartUpCompactsOnceAndLaterQuietIntervalsDoNot() {
    IdleCompaction compaction = new IdleCompaction(IdleCompaction.IDLE_CPU_SHARE);

    assertThat(compaction.compactNow(QUIET, TEN_SECONDS)).isTrue();
    assertThat(compaction.compactNow(QUIET, TEN_SECONDS)).isFalse();
    assertThat(compaction.compactNow(0, TEN_SECONDS)).isFalse();
  }

  @Test
  void eachBusyPeriodEndsWithOneCompactionAndNoneWhileItRuns() {
    IdleCompaction compaction = new IdleCompaction(IdleCompaction.IDLE_CPU_SHARE);
    compaction.compactNow(QUIET, TEN_SECONDS);

    assertThat(compaction.compactNow(BUSY, TEN_SECONDS)).as("a download runs").isFalse();
    assertThat(compaction.compactNow(BUSY / 2, TEN_SECONDS)).isFalse();
    assertThat(compaction.compactNow(QUIET, TEN_SECONDS)).as("it ended").isTrue();
    assertThat(compaction.compactNow(QUIET, TEN_SECONDS)).isFalse();
    assertThat(compaction.compactNow(BUSY, TEN_SECONDS)).isFalse();
    assertThat(compaction.compactNow(QUIET, TEN_SECONDS)).isTrue();
  }

  @Test
  void theIdleLineIsAShareOfOneCoreOverTheInterval() {
    IdleCompaction compaction = new IdleCompaction(0.05);
    compaction.compactNow(0, TEN_SECONDS);

    assertThat(compaction.compactNow(TEN_SECONDS / 20, TEN_SECONDS)).as("exactly 5 %: busy").isFalse();
    assertThat(compaction.compactNow(TEN_SECONDS / 20 - 1, TEN_SECONDS)).isTrue();
    assertThat(compaction.compactNow(0, 0)).as("no interval: no reading").isFalse();
  }

  @Test
  void theIdleSizingOfACompactionGivesWayOnceToTheBusyOneWhenTheProcessWorksAgain() {
    IdleCompaction compaction = new IdleCompaction(IdleCompaction.IDLE_CPU_SHARE);
    assertThat(compaction.takeBusySizing()).as("nothing compacted yet").isFalse();
    compaction.compactNow(BUSY, TEN_SECONDS);
    assertThat(compaction.takeBusySizing()).as("busy before any compaction: nothing to put back").isFalse();

    assertThat(compaction.compactNow(QUIET, TEN_SECONDS)).isTrue();
    compaction.compactNow(QUIET, TEN_SECONDS);
    assertThat(compaction.takeBusySizing()).as("still idle").isFalse();
    compaction.compactNow(BUSY, TEN_SECONDS);
    assertThat(compaction.takeBusySizing()).isTrue();
    compaction.compactNow(BUSY, TEN_SECONDS);
    assertThat(compaction.takeBusySizing()).as("once per busy period").isFalse();
  }
}
