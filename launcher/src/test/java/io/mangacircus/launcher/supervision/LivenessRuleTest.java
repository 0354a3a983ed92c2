package io.mangacircus.launcher.supervision;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LivenessRuleTest {

  @Test
  void threeMissedPingsInARowAreOneFailure() {
    LivenessRule rule = new LivenessRule(3);

    assertThat(rule.missed()).isFalse();
    assertThat(rule.missed()).isFalse();
    assertThat(rule.missed()).isTrue();
  }

  @Test
  void anAnsweredPingStartsTheCountAgain() {
    LivenessRule rule = new LivenessRule(3);
    rule.missed();
    rule.missed();
    rule.answered();

    assertThat(rule.missed()).isFalse();
    assertThat(rule.missed()).isFalse();
    assertThat(rule.missed()).isTrue();
  }

  @Test
  void afterAFailureTheNextRunStartsFromZero() {
    LivenessRule rule = new LivenessRule(2);
    rule.missed();
    assertThat(rule.missed()).isTrue();

    assertThat(rule.consecutiveMisses()).isZero();
    assertThat(rule.missed()).isFalse();
  }
}
