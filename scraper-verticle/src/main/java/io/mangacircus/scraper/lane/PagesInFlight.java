package io.mangacircus.scraper.lane;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * One chapter's pages whose decode and store still run while the lane fetches the next ones: at most {@code limit}
 * at once, and a stop (a page refused, a store failed, the lease lost) that the lane sees before its next fetch.
 * Used on the lane's context only.
 */
final class PagesInFlight {

  private final int limit;
  private final List<Future<Void>> running = new ArrayList<>();
  private boolean stopped;

  PagesInFlight(int limit) {
    this.limit = Math.max(1, limit);
  }

  /** Completes when fewer than {@code limit} pages are in flight. */
  Future<Void> slot() {
    running.removeIf(Future::isComplete);
    if (running.size() < limit) {
      return Future.succeededFuture();
    }
    return Future.any(List.copyOf(running)).transform(ar -> slot());
  }

  /** Adds a page's decode and store; its future never fails (the page records its own failure with {@link #stop}). */
  void add(Future<Void> page) {
    running.add(page);
  }

  /** Completes when every page in flight has finished. */
  Future<Void> drained() {
    running.removeIf(Future::isComplete);
    if (running.isEmpty()) {
      return Future.succeededFuture();
    }
    return Future.join(List.copyOf(running)).transform(ar -> drained());
  }

  /**
   * Marks the chapter stopped.
   *
   * @return true the first time: only the first failure is reported
   */
  boolean stop() {
    boolean first = !stopped;
    stopped = true;
    return first;
  }

  boolean stopped() {
    return stopped;
  }
}
