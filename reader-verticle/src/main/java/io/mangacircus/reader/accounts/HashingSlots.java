package io.mangacircus.reader.accounts;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the password checks running or waiting for a hashing thread: past the bound a check is refused at once (the
 * caller answers 503) instead of queueing every later login behind a burst.
 */
final class HashingSlots {

  private final int limit;
  private final AtomicInteger taken = new AtomicInteger();

  HashingSlots(int limit) {
    this.limit = limit;
  }

  /** Takes a slot; false when all are taken. */
  boolean tryTake() {
    while (true) {
      int now = taken.get();
      if (now >= limit) {
        return false;
      }
      if (taken.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** Gives back a slot taken before. */
  void give() {
    taken.decrementAndGet();
  }

  /** Slots taken now. */
  int taken() {
    return taken.get();
  }
}
