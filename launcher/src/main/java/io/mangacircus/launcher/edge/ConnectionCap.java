package io.mangacircus.launcher.edge;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the open HTTP connections of every listener on the port and refuses one over the cap. */
final class ConnectionCap {

  private final int max;
  private final AtomicInteger open = new AtomicInteger();

  /** @param max open connections at most, ≥ 1 */
  ConnectionCap(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("the connection cap must be at least 1, got " + max);
    }
    this.max = max;
  }

  /** Whether a new connection may stay open; if so, it counts until {@link #closed}. */
  boolean tryOpen() {
    while (true) {
      int now = open.get();
      if (now >= max) {
        return false;
      }
      if (open.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** A connection admitted by {@link #tryOpen} closed. */
  void closed() {
    open.decrementAndGet();
  }

  /** Connections open now. */
  int open() {
    return open.get();
  }
}
