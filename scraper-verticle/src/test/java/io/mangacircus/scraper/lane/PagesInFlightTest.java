package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.Test;

class PagesInFlightTest {

  @Test
  void theLaneWaitsForASlotOnlyWhenTheLimitIsReached() {
    PagesInFlight inFlight = new PagesInFlight(2);
    Promise<Void> first = Promise.promise();
    Promise<Void> second = Promise.promise();

    assertThat(inFlight.slot().isComplete()).isTrue();
    inFlight.add(first.future());
    assertThat(inFlight.slot().isComplete()).as("one of two in flight").isTrue();
    inFlight.add(second.future());
    Future<Void> third = inFlight.slot();
    assertThat(third.isComplete()).as("two of two in flight").isFalse();

    second.complete();
    assertThat(third.succeeded()).as("a slot freed").isTrue();
  }

  @Test
  void drainedWaitsForEveryPageInFlight() {
    PagesInFlight inFlight = new PagesInFlight(3);
    Promise<Void> first = Promise.promise();
    Promise<Void> second = Promise.promise();
    inFlight.add(first.future());
    inFlight.add(second.future());

    Future<Void> drained = inFlight.drained();
    first.complete();
    assertThat(drained.isComplete()).isFalse();
    second.complete();
    assertThat(drained.succeeded()).isTrue();
  }

  @Test
  void onlyTheFirstStopReportsAndTheStopStays() {
    PagesInFlight inFlight = new PagesInFlight(1);

    assertThat(inFlight.stopped()).isFalse();
    assertThat(inFlight.stop()).isTrue();
    assertThat(inFlight.stop()).isFalse();
    assertThat(inFlight.stopped()).isTrue();
  }
}
