package io.mangacircus.scraper.source;

import io.mangacircus.testing.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestLimiterTest {


  private static final RequestLimiter.Rule ALL = new RequestLimiter.Rule("all", 5, Duration.ofSeconds(1),
      Duration.ofMillis(210));
  private static final RequestLimiter.Rule AT_HOME = new RequestLimiter.Rule("at-home", 40, Duration.ofMinutes(1),
      Duration.ZERO);

  private final MutableClock clock = new MutableClock();
  private final RequestLimiter limiter = new RequestLimiter(clock);

  /** The start instants of {@code n} requests asked for at the same moment. */
  private List<Instant> starts(int n, List<RequestLimiter.Rule> rules) {
    List<Instant> starts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      starts.add(clock.instant().plus(limiter.reserve(rules)));
    }
    return starts;
  }

  private static int mostWithin(List<Instant> starts, Duration window) {
    List<Instant> sorted = new ArrayList<>(starts);
    Collections.sort(sorted);
    int most = 0;
    for (int i = 0; i < sorted.size(); i++) {
      int inWindow = 0;
      for (int j = i; j < sorted.size() && sorted.get(j).isBefore(sorted.get(i).plus(window)); j++) {
        inWindow++;
      }
      most = Math.max(most, inWindow);
    }
    return most;
  }

  @Test
  void theFirstRequestGoesAtOnce() {
    assertThat(limiter.reserve(List.of(ALL))).isZero();
  }

  @Test
  void aBurstIsSpreadOutSoThatSixNeverStartWithinOneSecond() {
    List<Instant> starts = starts(30, List.of(ALL));

    assertThat(mostWithin(starts, Duration.ofSeconds(1))).isEqualTo(5);
    for (int i = 1; i < starts.size(); i++) {
      assertThat(Duration.between(starts.get(i - 1), starts.get(i))).isEqualTo(Duration.ofMillis(210));
    }
  }

  @Test
  void aQuietSpellDoesNotSaveUpABurst() {
    limiter.reserve(List.of(ALL));
    clock.advance(Duration.ofMinutes(5));

    assertThat(limiter.reserve(List.of(ALL))).isZero();
    assertThat(limiter.reserve(List.of(ALL))).isEqualTo(Duration.ofMillis(210));
  }

  @Test
  void waitingOutTheSpacingLetsTheNextRequestGoAtOnce() {
    limiter.reserve(List.of(ALL));
    clock.advance(Duration.ofMillis(209));
    assertThat(limiter.reserve(List.of(ALL))).isEqualTo(Duration.ofMillis(1));
    clock.advance(Duration.ofMillis(1 + 210));
    assertThat(limiter.reserve(List.of(ALL))).isZero();
  }

  @Test
  void aRequestThatEndsLateMovesTheNextOneToSpacingAfterItsEnd() {
    assertThat(limiter.reserve(List.of(ALL))).isZero();
    clock.advance(Duration.ofMillis(150));
    limiter.finished(List.of(ALL));

    assertThat(limiter.reserve(List.of(ALL))).as("210 ms after the end, not after the start")
        .isEqualTo(Duration.ofMillis(210));
  }

  @Test
  void anEndOnlyCountsForTheRulesItWasReservedUnder() {
    RequestLimiter.Rule other = new RequestLimiter.Rule("other", 100, Duration.ofSeconds(1), Duration.ofMillis(500));
    limiter.finished(List.of(other));

    assertThat(limiter.reserve(List.of(ALL))).isZero();
    assertThat(limiter.wouldWait(List.of(other))).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void theFortyFirstAtHomeLookUpWaitsUntilTheFirstLeavesTheMinute() {
    Instant first = clock.instant();
    List<Instant> starts = starts(41, List.of(ALL, AT_HOME));

    assertThat(mostWithin(starts, Duration.ofMinutes(1))).isEqualTo(40);
    assertThat(starts.get(40)).isEqualTo(first.plus(Duration.ofMinutes(1)));
    assertThat(mostWithin(starts, Duration.ofSeconds(1))).as("at-home look-ups count as requests too").isEqualTo(5);
  }

  @Test
  void atHomeLookUpsAndOtherRequestsShareTheFivePerSecond() {
    List<Instant> starts = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      starts.add(clock.instant().plus(limiter.reserve(i % 2 == 0 ? List.of(ALL, AT_HOME) : List.of(ALL))));
    }

    assertThat(mostWithin(starts, Duration.ofSeconds(1))).isEqualTo(5);
  }

  @Test
  void aSlowTrickleOfAtHomeLookUpsIsNeverHeldBack() {
    for (int i = 0; i < 100; i++) {
      assertThat(limiter.reserve(List.of(ALL, AT_HOME))).isZero();
      clock.advance(Duration.ofMillis(1_500));
    }
  }

  @Test
  void aHoldDelaysEveryRequestUntilItsEnd() {
    limiter.holdUntil(clock.instant().plusSeconds(7));

    assertThat(limiter.hold()).contains(clock.instant().plusSeconds(7));
    assertThat(limiter.wouldWait(List.of(ALL))).isEqualTo(Duration.ofSeconds(7));
    assertThat(limiter.reserve(List.of(ALL))).isEqualTo(Duration.ofSeconds(7));
    assertThat(limiter.reserve(List.of(ALL))).isEqualTo(Duration.ofSeconds(7).plusMillis(210));
  }

  @Test
  void anEarlierHoldDoesNotShortenALaterOne() {
    limiter.holdUntil(clock.instant().plusSeconds(30));
    limiter.holdUntil(clock.instant().plusSeconds(2));

    assertThat(limiter.hold()).contains(clock.instant().plusSeconds(30));
    clock.advance(Duration.ofSeconds(31));
    assertThat(limiter.hold()).isEmpty();
    assertThat(limiter.reserve(List.of(ALL))).isZero();
  }

  @Test
  void wouldWaitReservesNothing() {
    limiter.reserve(List.of(ALL));

    assertThat(limiter.wouldWait(List.of(ALL))).isEqualTo(Duration.ofMillis(210));
    assertThat(limiter.wouldWait(List.of(ALL))).isEqualTo(Duration.ofMillis(210));
  }

  @Test
  void reservationsFromManyThreadsNeverShareOrCrowdASlot() throws Exception {
    List<Instant> starts = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch go = new CountDownLatch(1);
    for (int t = 0; t < 4; t++) {
      pool.submit(() -> {
        go.await();
        for (int i = 0; i < 25; i++) {
          starts.add(clock.instant().plus(limiter.reserve(List.of(ALL))));
        }
        return null;
      });
    }
    go.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

    assertThat(starts).hasSize(100).doesNotHaveDuplicates();
    assertThat(mostWithin(starts, Duration.ofSeconds(1))).isEqualTo(5);
  }

  @Test
  void aRequestSentLaterThanItsSlotIsCountedFromWhenItLeftSoTheWindowHoldsOnArrival() {
    RequestLimiter.Rule twoASecond = new RequestLimiter.Rule("two", 2, Duration.ofSeconds(1), Duration.ZERO);
    Instant first = clock.instant();
    limiter.reserve(List.of(twoASecond));
    clock.advance(Duration.ofMillis(7));
    limiter.started(List.of(twoASecond));
    limiter.reserve(List.of(twoASecond));

    Duration third = limiter.reserve(List.of(twoASecond));

    assertThat(clock.instant().plus(third)).as("a full window after the first actually left")
        .isEqualTo(first.plusMillis(7).plusSeconds(1));
  }

  @Test
  void aHoldOnOneRuleHoldsOnlyTheRequestsItCovers() {
    limiter.holdUntil(AT_HOME, clock.instant().plusSeconds(40), "waiting for the at-home limit");

    assertThat(limiter.wouldWait(List.of(ALL))).isZero();
    assertThat(limiter.wouldWait(List.of(ALL, AT_HOME))).isEqualTo(Duration.ofSeconds(40));
    assertThat(limiter.hold(List.of(ALL, AT_HOME))).hasValueSatisfying(h -> assertThat(h.getValue())
        .isEqualTo("waiting for the at-home limit"));
    assertThat(limiter.hold(List.of(ALL))).isEmpty();
  }

  @Test
  void aLearnedRateSpacesEveryRequest() {
    LearnedRate rate = limiter.learnedRate(4.0);
    rate.refused(clock.instant());
    rate.refused(clock.instant());
    limiter.reserve(List.of(ALL));

    assertThat(limiter.wouldWait(List.of(ALL))).as("one a second after two 429s").isEqualTo(Duration.ofSeconds(1));
  }
}
