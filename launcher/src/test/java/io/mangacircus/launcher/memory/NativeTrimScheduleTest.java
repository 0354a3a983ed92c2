package io.mangacircus.launcher.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NativeTrimScheduleTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1L << 20;

  @Test
  void aBusyProcessIsTrimmedOnTheFixedIntervalOnly() {
    NativeTrimSchedule schedule = new NativeTrimSchedule(30 * SECOND, MIB, 0);

    assertThat(schedule.trimNow(10 * SECOND, false, false, 300 * MIB)).isFalse();
    assertThat(schedule.trimNow(20 * SECOND, false, false, 310 * MIB)).isFalse();
    assertThat(schedule.trimNow(30 * SECOND, false, false, 320 * MIB)).isTrue();
    schedule.trimmed(30 * SECOND, 290 * MIB);
    assertThat(schedule.trimNow(40 * SECOND, false, false, 330 * MIB)).isFalse();
  }

  @Test
  void anIdleIntervalInWhichTheResidentSetGrewSinceTheLastTrimIsTrimmedAtOnce() {
    NativeTrimSchedule schedule = new NativeTrimSchedule(30 * SECOND, MIB, 0);
    schedule.trimmed(0, 144 * MIB);

    assertThat(schedule.trimNow(10 * SECOND, true, false, 144 * MIB + MIB / 2)).as("under the growth line").isFalse();
    assertThat(schedule.trimNow(20 * SECOND, true, false, 154 * MIB)).as("a compilation left 10 MiB").isTrue();
    schedule.trimmed(20 * SECOND, 145 * MIB);
    assertThat(schedule.trimNow(25 * SECOND, true, false, 145 * MIB)).isFalse();
    assertThat(schedule.trimNow(25 * SECOND, false, false, 160 * MIB)).as("busy: waits for the interval").isFalse();
  }

  @Test
  void aCompactionIsFollowedByATrimAndAnUnknownResidentSetTrimsEveryIdleInterval() {
    NativeTrimSchedule schedule = new NativeTrimSchedule(30 * SECOND, MIB, 0);

    assertThat(schedule.trimNow(SECOND, false, true, 200 * MIB)).isTrue();
    schedule.trimmed(SECOND, -1);
    assertThat(schedule.trimNow(2 * SECOND, true, false, -1)).isTrue();
    assertThat(schedule.trimNow(2 * SECOND, false, false, -1)).isFalse();
  }
}
