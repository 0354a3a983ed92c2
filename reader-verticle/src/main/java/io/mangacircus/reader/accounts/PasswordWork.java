package io.mangacircus.reader.accounts;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.concurrent.Callable;

/**
 * Runs password checks (logins, app passwords over Basic) on their own few threads, in parallel, with a bounded
 * number waiting: a burst of guesses neither serialises everyone's login behind it nor takes the worker pool that
 * database reads share. A check that finds no room fails at once with {@link Busy}.
 */
public final class PasswordWork {

  /** Hashing threads: one per core, at least two. */
  public static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  /** Checks that may wait for a thread besides those running: about a quarter of a second of work each. */
  public static final int WAITING = 4 * THREADS;

  /** No room to check a password now; the caller answers 503 with {@code Retry-After}. */
  public static final class Busy extends RuntimeException {
    Busy() {
      super("too many password checks at once", null, false, false);
    }
  }

  private final WorkerExecutor executor;
  private final HashingSlots slots = new HashingSlots(THREADS + WAITING);

  public PasswordWork(Vertx vertx) {
    this.executor = vertx.createSharedWorkerExecutor("mc-password-hashing", THREADS);
  }

  /** Runs {@code check} on a hashing thread, unordered; fails with {@link Busy} when none is free or soon free. */
  public <T> Future<T> submit(Callable<T> check) {
    if (!slots.tryTake()) {
      return Future.failedFuture(new Busy());
    }
    return executor.executeBlocking(check, false).andThen(ar -> slots.give());
  }
}
