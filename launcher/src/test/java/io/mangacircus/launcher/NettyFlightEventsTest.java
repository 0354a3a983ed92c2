package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When Netty's flight-recorder events are switched off at start-up, and when they are left as they are. */
class NettyFlightEventsTest {

  @Test
  void withoutARecordingAtStartNettysFlightEventsAreSwitchedOff() {
    assertThat(NettyFlightEvents.value(null, false)).contains("false");
  }

  @Test
  void aProcessStartedWithAFlightRecordingKeepsThem() {
    assertThat(NettyFlightEvents.value(null, true)).isEmpty();
  }

  @Test
  void theOperatorsOwnSettingIsKeptEitherWay() {
    assertThat(NettyFlightEvents.value("true", false)).isEmpty();
    assertThat(NettyFlightEvents.value("false", true)).isEmpty();
  }

  @Test
  void thisProcessIsToldBeforeNettyReadsIt() {
    String before = System.getProperty(NettyFlightEvents.PROPERTY);
    try {
      System.clearProperty(NettyFlightEvents.PROPERTY);
      NettyFlightEvents.applyToThisProcess();
      assertThat(System.getProperty(NettyFlightEvents.PROPERTY)).as("surefire's JVM runs no recording")
          .isEqualTo("false");
    } finally {
      if (before == null) {
        System.clearProperty(NettyFlightEvents.PROPERTY);
      } else {
        System.setProperty(NettyFlightEvents.PROPERTY, before);
      }
    }
  }
}
