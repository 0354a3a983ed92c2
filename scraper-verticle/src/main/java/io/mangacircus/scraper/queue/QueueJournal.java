package io.mangacircus.scraper.queue;

import io.vertx.core.json.JsonObject;
import java.time.InstantSource;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a change of the scraper's state becomes durable: a line of {@code queue.json.journal} (the jobs, lane settings
 * and incidents it changed; {@code queue.json} is the snapshot they are folded into) and its {@code events.log} line, under the one lock the queue and its stores share. Listeners are told
 * after the lock is released, in the order the changes were committed (docs/architecture.md §4).
 */
final class QueueJournal {

  private static final Logger LOG = LoggerFactory.getLogger(QueueJournal.class);

  private final QueueStore store;
  private final EventLog events;
  private final InstantSource clock;
  private final QueueListener listener;
  private final Object monitor;
  private final Queue<Consumer<QueueListener>> notices = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean delivering = new AtomicBoolean();
  private Supplier<QueueFile> snapshot;
  /** Event lines of a batch, written with its one save when it ends; null outside a batch. Under the lock. */
  private java.util.List<java.util.Map.Entry<String, JsonObject>> batched;

  /** @param monitor the lock's monitor: the queue itself, so that "holding the queue" means one thing everywhere */
  QueueJournal(QueueStore store, EventLog events, InstantSource clock, QueueListener listener, Object monitor) {
    this.monitor = monitor;
    this.store = store;
    this.events = events;
    this.clock = clock;
    this.listener = listener;
  }

  /** What {@link #commit} saves: the queue's and its stores' state, read under the lock. */
  void snapshotFrom(Supplier<QueueFile> snapshot) {
    this.snapshot = snapshot;
  }

  InstantSource clock() {
    return clock;
  }

  /** Runs {@code change} under the lock, then tells the listeners what it committed (outside the lock). */
  <T> T locked(Supplier<T> change) {
    T result;
    synchronized (monitor) {
      result = change.get();
    }
    deliver();
    return result;
  }

  void locked(Runnable change) {
    locked(() -> {
      change.run();
      return null;
    });
  }

  /**
   * Saves the change (a journal line) and appends the event's line; both are on disk when this returns. Under the lock. Inside
   * {@link #batch} both wait for the batch's end.
   */
  void commit(String type, JsonObject event) {
    if (batched != null) {
      batched.add(java.util.Map.entry(type, event));
      return;
    }
    save();
    append(type, event);
  }

  /**
   * Runs {@code changes} under the lock as one commit: one journal line and every event line appended with one flush
   * when they are done (start-up recovery's changes to thousands of chapters, which would otherwise be a line each). Nothing is durable before this returns, as for a single commit.
   */
  <T> T batch(Supplier<T> changes) {
    return locked(() -> {
      if (batched != null) {
        return changes.get();
      }
      batched = new java.util.ArrayList<>();
      T result;
      java.util.List<java.util.Map.Entry<String, JsonObject>> lines;
      try {
        result = changes.get();
      } finally {
        lines = batched;
        batched = null;
      }
      if (!lines.isEmpty()) {
        save();
        events.appendAll(lines, clock.instant());
      }
      return result;
    });
  }

  /** Saves the change only (a counter no one reads from the log). Under the lock. */
  void save() {
    store.save(snapshot.get());
  }

  /**
   * Folds the change journal into {@code queue.json} (a clean stop: the next start reads one file) and releases it.
   * Under the lock.
   */
  void close() {
    store.close(snapshot.get());
  }

  /** Writes the snapshot now and empties the journal. Under the lock. */
  void compact() {
    store.compact(snapshot.get());
  }

  /** Appends an {@code events.log} line only (something refused: the state did not change). */
  void append(String type, JsonObject event) {
    events.append(type, clock.instant(), event);
  }

  /** Queues a notice for the listeners; it is delivered when the lock is released. Under the lock. */
  void tell(Consumer<QueueListener> notice) {
    notices.add(notice);
  }

  /**
   * Delivers queued notices one at a time, in commit order: a thread that finds another delivering leaves its notices
   * to it. Never called with the lock held (a nested {@link #locked} call leaves them to the outermost one).
   */
  private void deliver() {
    if (Thread.holdsLock(monitor)) {
      return;
    }
    while (!notices.isEmpty() && delivering.compareAndSet(false, true)) {
      try {
        Consumer<QueueListener> notice;
        while ((notice = notices.poll()) != null) {
          try {
            notice.accept(listener);
          } catch (RuntimeException e) {
            // The change is committed; a listener that fails must not make its caller believe otherwise.
            LOG.error("[QUEUE] a queue listener failed: {}", e.toString(), e);
          }
        }
      } finally {
        delivering.set(false);
      }
    }
  }
}
