package io.mangacircus.scraper.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.support.supervision.CrashBudget;
import io.mangacircus.scraper.ScraperConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private static final ScraperConfig.Failures CONFIGURED = new ScraperConfig.Failures(120, 4, 250, 3, 300, 2, 60);

  @Test
  void theConfiguredKeysSetRequestRetriesBackoffAndRetryWait() {
    RetryPolicy policy = RetryPolicy.of(CONFIGURED);

    assertThat(policy.requestRetries()).isEqualTo(4);
    assertThat(policy.requestBackoff()).isEqualTo(Duration.ofMillis(250));
    assertThat(policy.retryWait()).isEqualTo(Duration.ofSeconds(120));
    assertThat(policy.stallRequeues()).isEqualTo(RetryPolicy.DEFAULTS.stallRequeues());
    assertThat(policy.laneCrashes()).isEqualTo(RetryPolicy.DEFAULTS.laneCrashes());
  }

  @Test
  void requestRetriesBackOffDoublingUpToTheCapAndARetryAfterWinsUpToTheCap() {
    RetryPolicy policy = RetryPolicy.of(CONFIGURED);

    assertThat(policy.requestDelay(0, null)).isEqualTo(Duration.ofMillis(250));
    assertThat(policy.requestDelay(2, null)).isEqualTo(Duration.ofMillis(1000));
    assertThat(policy.requestDelay(9, null)).isEqualTo(Duration.ofSeconds(30));
    assertThat(policy.requestDelay(0, Duration.ofSeconds(7))).isEqualTo(Duration.ofSeconds(7));
    assertThat(policy.requestDelay(0, Duration.ofMinutes(5))).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aJobGetsOneNetworkRetryAndOneStallRequeueThenIsQuarantined() {
    Failure network = new Failure(FailureKind.NETWORK, null, "reset");
    Failure stall = new Failure(FailureKind.STALL, null, "no progress");
    RetryPolicy policy = RetryPolicy.of(CONFIGURED);

    assertThat(FailureClassifier.action(network, 0, 0, policy)).isEqualTo(FailureAction.RETRY_LATER);
    assertThat(FailureClassifier.action(network, 1, 0, policy)).isEqualTo(FailureAction.QUARANTINE);
    assertThat(FailureClassifier.action(stall, 0, 0, policy)).isEqualTo(FailureAction.REQUEUE);
    assertThat(FailureClassifier.action(stall, 0, 1, policy)).isEqualTo(FailureAction.QUARANTINE);
  }

  @Test
  void aLaneIsParkedAtItsThirdCrashWithinTheHourAndRestartsBackOff() {
    CrashBudget budget = RetryPolicy.DEFAULTS.laneCrashBudget(InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z")));

    assertThat(budget.recordFailure()).isEqualTo(CrashBudget.Verdict.RESTART);
    assertThat(budget.recordFailure()).isEqualTo(CrashBudget.Verdict.RESTART);
    assertThat(budget.recordFailure()).isEqualTo(CrashBudget.Verdict.PARK);
    assertThat(RetryPolicy.DEFAULTS.laneRestart().delayFor(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(RetryPolicy.DEFAULTS.laneRestart().delayFor(20)).isEqualTo(Duration.ofSeconds(60));
  }
}
