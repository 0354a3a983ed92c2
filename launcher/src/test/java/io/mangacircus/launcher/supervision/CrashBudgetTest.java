package io.mangacircus.launcher.supervision;

import io.mangacircus.testing.MutableClock;
import io.mangacircus.support.supervision.CrashBudget;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.state.RuntimeStateStore.RuntimeFile;
import io.mangacircus.launcher.state.ServiceRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrashBudgetTest {

  private static final Duration HOUR = Duration.ofHours(1);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));

  @Test
  void threeFailuresWithin59MinutesParkTheService() {
    CrashBudget budget = new CrashBudget(3, HOUR, clock, List.of());

    assertThat(budget.recordFailure()).isEqualTo(CrashBudget.Verdict.RESTART);
    clock.advance(Duration.ofMinutes(30));
    assertThat(budget.recordFailure()).isEqualTo(CrashBudget.Verdict.RESTART);
    clock.advance(Duration.ofMinutes(29));
    assertThat(budget.recordFailure()).isEqualTo(CrashBudget.Verdict.PARK);
    assertThat(budget.exhausted()).isTrue();
  }

  @Test
  void threeFailuresSpreadOverMoreThanAnHourDoNotPark() {
    CrashBudget budget = new CrashBudget(3, HOUR, clock, List.of());

    budget.recordFailure();
    clock.advance(Duration.ofMinutes(31));
    budget.recordFailure();
    clock.advance(Duration.ofMinutes(30));

    assertThat(budget.recordFailure()).isEqualTo(CrashBudget.Verdict.RESTART);
    assertThat(budget.failuresInWindow()).isEqualTo(2);
  }

  @Test
  void aFailureExactlyOneHourOldHasLeftTheWindow() {
    CrashBudget budget = new CrashBudget(3, HOUR, clock, List.of());
    budget.recordFailure();
    clock.advance(HOUR);

    assertThat(budget.failuresInWindow()).isZero();
  }

  @Test
  void onlyFailuresInsideTheWindowArePersisted() {
    CrashBudget budget = new CrashBudget(3, HOUR, clock, List.of());
    budget.recordFailure();
    clock.advance(Duration.ofMinutes(90));
    budget.recordFailure();

    assertThat(budget.inWindow()).containsExactly(clock.instant());
  }

  @Test
  void aRestartReloadsThePersistedBudget(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("runtime.json");
    RuntimeStateStore store = new RuntimeStateStore();
    CrashBudget before = new CrashBudget(3, HOUR, clock, List.of());
    before.recordFailure();
    clock.advance(Duration.ofMinutes(10));
    before.recordFailure();
    store.save(file, new RuntimeFile(Map.of("scraper",
        new ServiceRuntime(ServiceStatus.UP, before.inWindow(), null, 2, "uncaught exception")), null));

    clock.advance(Duration.ofMinutes(5));
    List<Instant> reloaded = store.load(file).orElseThrow().services().get("scraper").failures();
    CrashBudget after = new CrashBudget(3, HOUR, clock, reloaded);

    assertThat(after.failuresInWindow()).isEqualTo(2);
    assertThat(after.recordFailure()).isEqualTo(CrashBudget.Verdict.PARK);
  }
}
