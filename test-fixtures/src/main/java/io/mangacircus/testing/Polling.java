package io.mangacircus.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;

/**
 * Awaitility for tests written as vertx-junit5 future chains: polls outside state (a queue, files) on a worker
 * thread, never on the event loop, and completes the chain once the condition holds.
 */
public final class Polling {

  private Polling() {
  }

  /** Completes once {@code condition} holds; fails with Awaitility's timeout after {@code limit}. */
  public static Future<Void> until(Vertx vertx, Duration limit, Callable<Boolean> condition) {
    return vertx.executeBlocking(() -> {
      Awaitility.await().atMost(limit).pollInterval(Duration.ofMillis(50)).until(condition);
      return null;
    }, false);
  }
}
