package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.state.StateJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes {@code data/scraper/queue.json} and its change journal {@code queue.json.journal}: a change is one
 * line appended to the journal and fdatasynced (what it costs does not grow with the queue); {@code queue.json} is the
 * snapshot, rewritten when the journal grows past a threshold (on a worker thread while changes keep being appended),
 * and at a clean close. The snapshot records the last journal sequence it includes; loading is the snapshot plus the
 * journal's later lines. The snapshot is schema-versioned, one job a line, written atomically with the previous
 * version kept as {@code queue.json.bak}, older schemas migrated forward (the original kept as
 * {@code queue.json.schema<N>.bak}). A file that fails to parse is never overwritten (docs/operations.md).
 */
public final class QueueStore {

  private static final Logger LOG = LoggerFactory.getLogger(QueueStore.class);

  /**
   * The schema this version writes. Schema 4 is the snapshot of a queue whose changes since go to the journal beside it:
   * a version before the journal would read the snapshot alone and miss them, so it is refused by that version's
   * "newer than" check instead. Schema 3 added the chapter stages {@code scheduled} and {@code external}; schemas 3 and
   * 2 (a subset) are read as they are and the snapshot is rewritten as schema 4 before the first change is appended;
   * schema 1 (single {@code status} string, {@code done} flags) is migrated.
   */
  public static final int SCHEMA = 4;

  /** Journal lines after which the snapshot is rewritten. */
  public static final int COMPACT_AFTER_LINES = 2_000;

  /** Journal bytes after which the snapshot is rewritten. */
  public static final long COMPACT_AFTER_BYTES = 4L * 1024 * 1024;

  private final Path file;
  private final Path journal;
  private final int compactAfterLines;
  private final long compactAfterBytes;
  private final StreamingLoad streaming;
  /** The path for what {@link #streaming} declines: older schemas (migrated) and named errors. */
  private final TreeLoad trees;
  private final SnapshotFile snapshot;
  private final JournalFile lines;
  private final java.util.concurrent.atomic.LongAdder saves = new java.util.concurrent.atomic.LongAdder();
  /** Writes without indentation: a job is one line of the file, a change one line of the journal. */
  private final ObjectMapper compact = StateJson.mapper();

  /** What is durable, as last loaded or written (under this store's lock); null until the first load. */
  private CommittedQueue committed;
  /** The sequence of the last change made durable (in the snapshot or the journal). */
  private long sequence;
  /** Lines appended while a compaction is under way: the journal it leaves holds them. Null when none runs. */
  private List<byte[]> sinceCompaction;
  private java.util.concurrent.ExecutorService worker;
  private java.util.concurrent.Future<?> running;
  /** Lines replayed by the last load (the journal's lines past the snapshot's sequence). */
  private volatile int replayed;

  public QueueStore(Path file) {
    this(file, COMPACT_AFTER_LINES, COMPACT_AFTER_BYTES);
  }

  /** A store that compacts after {@code compactAfterLines} journal lines or {@code compactAfterBytes} bytes. */
  public QueueStore(Path file, int compactAfterLines, long compactAfterBytes) {
    this.file = file;
    this.journal = journalOf(file);
    this.compactAfterLines = compactAfterLines;
    this.compactAfterBytes = compactAfterBytes;
    ObjectMapper mapper = StateJson.mapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    this.streaming = new StreamingLoad(file, journal);
    this.snapshot = new SnapshotFile(file, compact);
    this.lines = new JournalFile(journal);
    this.trees = new TreeLoad(file, journal, snapshot.backup(), mapper, queue -> {
      snapshot.write(queue, 0);
      lines.replaceWith(List.of());
    });
  }

  /** The journal beside a queue file: {@code queue.json.journal}. */
  public static Path journalOf(Path queueFile) {
    return queueFile.resolveSibling(queueFile.getFileName() + ".journal");
  }

  /** The queue file this store owns. */
  public Path file() {
    return file;
  }

  /** Its change journal. */
  public Path journal() {
    return journal;
  }

  /**
   * The queue: the snapshot and the journal's lines past it; empty when neither exists yet. An older schema is migrated
   * and saved at once, with the original kept beside it. Reading changes nothing otherwise (a torn last journal line,
   * the trace of a crash during an append, is ignored with a warning and cut off by this store's next append).
   *
   * @throws CorruptStateFileException when a file exists but cannot be understood (it is left untouched)
   */
  public synchronized QueueFile load() {
    lines.close();
    StreamingLoad.Loaded loaded = loadQueue(true);
    QueueFile queue = loaded.queue();
    snapshot.loaded(Files.exists(file), loaded.snapshotSequence());
    committed = new CommittedQueue(queue, snapshot, compact);
    sequence = loaded.sequence();
    lines.loaded(loaded.length(), loaded.lines());
    replayed = loaded.applied();
    if (loaded.applied() > 0) {
      LOG.info("[QUEUE] {}: {} changes replayed from {} past the snapshot's sequence {}", file, loaded.applied(),
          journal.getFileName(), loaded.snapshotSequence());
    }
    return queue;
  }

  /**
   * The queue as {@link #load} sees it, for a reader that is not its owner ({@code check}, a test of a running
   * service): nothing is written, not even a migration (an older schema is migrated in memory only).
   *
   * @throws CorruptStateFileException when the snapshot or the journal exists but cannot be understood
   */
  public QueueFile read() {
    return loadQueue(false).queue();
  }

  /**
   * The snapshot and the journal's lines past it, bound to jobs straight from the files' bytes ({@link StreamingLoad});
   * whatever that path does not take as it is (an older schema, a value it would not bind exactly as the tree does, a
   * file or a line that does not parse) goes through the trees instead, which migrate, judge and name the error as
   * they always did.
   */
  private StreamingLoad.Loaded loadQueue(boolean migrate) {
    StreamingLoad.Loaded streamed = streaming.load();
    if (streamed != null) {
      return streamed;
    }
    return trees.load(migrate);
  }

  /**
   * The queue as {@link #read} sees it, as a tree shaped as {@code queue.json} is (jobs, lanes, incidents), before it
   * is bound to jobs: for a summary that does not need every field.
   */
  public ObjectNode readTree() {
    return trees.tree();
  }

  /**
   * Makes the queue's changes since the last save durable: one journal line (the changed and added jobs, the removed
   * job ids, the lanes and incidents when they changed) appended and fdatasynced; nothing when nothing changed. Past
   * the compaction threshold a snapshot is written on a worker thread meanwhile. A store that has not loaded yet loads
   * first (so that it knows the sequence to continue).
   */
  public synchronized void save(QueueFile queue) {
    if (committed == null) {
      load();
    }
    try {
      CommittedQueue.Change change = committed.changeLine(queue, sequence + 1);
      if (change == null) {
        return;
      }
      commit(change);
      if (!snapshot.onDisk()) {
        // The first change of a new queue: queue.json is written (small) so that it is there from now on.
        snapshot.write(queue, sequence);
        lines.replaceWith(List.of());
      } else if ((lines.lines() >= compactAfterLines || lines.length() >= compactAfterBytes)
          && sinceCompaction == null) {
        compactInBackground(queue, sequence);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("could not append to " + journal, e);
    }
  }

  /**
   * Appends a change's line and fdatasyncs it; the durable state and the sequence advance only once it is on disk. A
   * failed append leaves the journal as it was (the partial bytes are cut off when it is opened again).
   */
  private void commit(CommittedQueue.Change change) throws IOException {
    try {
      append(change.line());
    } catch (IOException | RuntimeException e) {
      lines.close();
      throw e;
    }
    committed.committed(change);
    saves.increment();
  }

  /** Appends one line and fdatasyncs it; the sequence advances only once it is durable. */
  private void append(byte[] line) throws IOException {
    lines.append(line);
    sequence++;
    if (sinceCompaction != null) {
      sinceCompaction.add(line);
    }
  }

  /**
   * Writes the snapshot of {@code queue} (which includes every change up to {@code upTo}) on the worker, then, under
   * this store's lock, replaces the journal by the lines appended meanwhile. A crash between the two leaves the whole
   * journal, whose lines up to {@code upTo} the next load skips.
   */
  private void compactInBackground(QueueFile queue, long upTo) {
    List<byte[]> tail = new ArrayList<>();
    sinceCompaction = tail;
    if (worker == null) {
      java.util.concurrent.ThreadPoolExecutor executor = new java.util.concurrent.ThreadPoolExecutor(1, 1, 30,
          java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), task -> {
            Thread thread = new Thread(task, "queue-compaction");
            thread.setDaemon(true);
            return thread;
          });
      executor.allowCoreThreadTimeOut(true);
      worker = executor;
    }
    running = worker.submit(() -> {
      try {
        boolean wrote = snapshot.write(queue, upTo);
        synchronized (this) {
          if (wrote && sinceCompaction == tail) {
            lines.replaceWith(tail);
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.error("[QUEUE] could not compact {} into {} (the journal keeps every change; retried at the next "
            + "threshold): {}", journal, file, e.toString(), e);
      } finally {
        synchronized (this) {
          if (sinceCompaction == tail) {
            sinceCompaction = null;
          }
        }
      }
    });
  }

  /**
   * Writes the snapshot now and empties the journal (a clean close, a test): waits for a compaction under way first.
   * Under the queue's lock, so nothing is appended meanwhile.
   */
  public void compact(QueueFile queue) {
    if (!Thread.holdsLock(this)) {
      awaitCompaction();
    }
    synchronized (this) {
      if (committed == null) {
        load();
      }
      try {
        CommittedQueue.Change change = committed.changeLine(queue, sequence + 1);
        if (change != null) {
          commit(change);
        }
        // A compaction under way is superseded: its snapshot is older than this one and it leaves the journal alone.
        sinceCompaction = null;
        snapshot.write(queue, sequence);
        lines.replaceWith(List.of());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("could not compact " + journal + " into " + file, e);
      }
    }
  }

  /** Compacts when the journal holds anything, then releases the journal and the worker. */
  public void close(QueueFile queue) {
    awaitCompaction();
    synchronized (this) {
      if (lines.lines() > 0 || (committed != null && committed.differsFrom(queue))) {
        compact(queue);
      }
      lines.close();
      if (worker != null) {
        worker.shutdown();
        worker = null;
      }
    }
  }

  /** Waits for the compaction under way, if any (never under this store's lock: the worker takes it to finish). */
  private void awaitCompaction() {
    java.util.concurrent.Future<?> pending;
    synchronized (this) {
      pending = running;
    }
    if (pending == null) {
      return;
    }
    try {
      pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      LOG.error("[QUEUE] compaction failed: {}", e.getCause().toString());
    }
  }

  /** How many changes this store made durable (each commit of a change is one journal line). */
  public long saves() {
    return saves.sum();
  }

  /** How many snapshots this store wrote ({@code queue.json} rewritten whole). */
  public long compactions() {
    return snapshot.written();
  }

  /** How many journal lines the last load replayed past the snapshot. */
  public int replayed() {
    return replayed;
  }

  /** {@code queue.json.bak}: the snapshot before the last one. */
  public Path backup() {
    return snapshot.backup();
  }
}
