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
 * Where a change of the scraper's state becomes durable: {@code queue.json} (jobs, lane settings and incidents, saved
 * together) and its {@code events.log} line, under the one lock the queue and its stores share. Listeners are told
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

  /** Saves {@code queue.json} and appends the event's line; both are on disk when this returns. Under the lock. */
  void commit(String type, JsonObject event) {
    save();
    append(type, event);
  }

  /** Saves {@code queue.json} only (a counter no one reads from the log). Under the lock. */
  void save() {
    store.save(snapshot.get());
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
