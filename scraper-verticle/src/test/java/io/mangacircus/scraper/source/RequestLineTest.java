package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Requests of one source go out one at a time, in order, spaced by the limiter's rules. */
@ExtendWith(VertxExtension.class)
class RequestLineTest {

  private static final RequestLimiter.Rule RULE = new RequestLimiter.Rule("all", 5, Duration.ofSeconds(1),
      Duration.ofMillis(100));

  private final RequestLine line = new RequestLine(new RequestLimiter(InstantSource.system()));
  private Vertx vertx;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
  }

  /** A request that takes {@code ms} and records when it started and ended. */
  private Future<Integer> request(int n, long ms, List<long[]> log, AtomicInteger inFlight, List<Integer> most) {
    long start = System.nanoTime();
    most.add(inFlight.incrementAndGet());
    Promise<Integer> done = Promise.promise();
    vertx.setTimer(ms, id -> {
      inFlight.decrementAndGet();
      log.add(new long[] {n, start, System.nanoTime()});
      done.complete(n);
    });
    return done.future();
  }

  @Test
  void requestsGoOneAtATimeInOrderEachSpacedFromTheEndOfTheLast(VertxTestContext context) {
    List<long[]> log = Collections.synchronizedList(new ArrayList<>());
    List<Integer> inFlight = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger running = new AtomicInteger();
    vertx.getOrCreateContext().runOnContext(v -> {
      List<Future<Integer>> all = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        int n = i;
        // The first request is slow: the next ones must still keep their spacing from its end.
        all.add(line.submit(List.of(RULE), () -> request(n, n == 0 ? 300 : 10, log, running, inFlight)));
      }
      Future.all(all).onComplete(context.succeeding(done -> context.verify(() -> {
        assertThat(all).extracting(Future::result).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(log).extracting(entry -> (int) entry[0]).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(inFlight).as("never two at once").allMatch(n -> n == 1);
        for (int i = 1; i < log.size(); i++) {
          long gapFromEnd = TimeUnit.NANOSECONDS.toMillis(log.get(i)[1] - log.get(i - 1)[2]);
          assertThat(gapFromEnd).as("gap before request %d", i).isGreaterThanOrEqualTo(99);
        }
        assertThat(line.size()).isZero();
        context.completeNow();
      })));
    });
  }

  @Test
  void aFailingRequestFreesTheLine(VertxTestContext context) {
    Checkpoint failed = context.checkpoint(2);
    Checkpoint third = context.checkpoint();
    vertx.getOrCreateContext().runOnContext(v -> {
      line.submit(List.of(RULE), () -> Future.<String>failedFuture(new RuntimeException("refused")))
          .onComplete(context.failing(e -> failed.flag()));
      line.submit(List.of(RULE), () -> {
        throw new IllegalStateException("a bug while building the request");
      }).onComplete(context.failing(e -> failed.flag()));
      line.submit(List.of(RULE), () -> Future.succeededFuture("third")).onComplete(context.succeeding(result ->
          context.verify(() -> {
            assertThat(result).isEqualTo("third");
            third.flag();
          })));
    });
  }

  @Test
  void theLineIsUsedFromAVertxContext() {
    assertThatThrownBy(() -> line.submit(List.of(RULE), () -> Future.succeededFuture(1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("context");
  }
}
