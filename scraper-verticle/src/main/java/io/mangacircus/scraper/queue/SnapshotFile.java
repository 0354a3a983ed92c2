package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.DurableFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the snapshot {@code queue.json}: one job a line, each unchanged job's JSON reused from the last write,
 * atomically, the previous snapshot kept as {@code queue.json.bak}; a snapshot older than the one on disk is not
 * written. Used by the store's thread and its compaction worker: one snapshot is written at a time.
 */
final class SnapshotFile {

  private static final byte[] EMPTY_JOBS = "\"jobs\":[]".getBytes(StandardCharsets.UTF_8);

  private final Path file;
  /** Writes without indentation: a job is one line of the file. */
  private final ObjectMapper compact;
  /**
   * Each job's JSON as last written, by instance (jobs are immutable: a changed job is a new instance). Shared by the
   * appends and the compaction worker.
   */
  private volatile Map<Job, byte[]> serialized = java.util.Collections.synchronizedMap(new IdentityHashMap<>());
  /** Only one snapshot is written at a time (the worker's and a close's). */
  private final Object snapshotLock = new Object();
  /** The sequence of the snapshot on disk, as last loaded or written (under {@link #snapshotLock}). */
  private long snapshotSequence;
  /** Whether {@code queue.json} exists (a first save writes it, so that the snapshot is always there). */
  private volatile boolean snapshotOnDisk;
  private final java.util.concurrent.atomic.LongAdder compactions = new java.util.concurrent.atomic.LongAdder();

  SnapshotFile(Path file, ObjectMapper compact) {
    this.file = file;
    this.compact = compact;
  }

  /** What a load found: whether the snapshot exists, and the journal sequence it includes. */
  void loaded(boolean onDisk, long sequence) {
    snapshotOnDisk = onDisk;
    synchronized (snapshotLock) {
      snapshotSequence = sequence;
    }
  }

  /** Whether {@code queue.json} exists, as last loaded or written. */
  boolean onDisk() {
    return snapshotOnDisk;
  }

  /** How many snapshots were written ({@code queue.json} rewritten whole). */
  long written() {
    return compactions.sum();
  }

  /** {@code queue.json.bak}: the snapshot before the last one. */
  Path backup() {
    return file.resolveSibling(file.getFileName() + ".bak");
  }

  /** A changed job's JSON for a journal line, kept so that the next snapshot reuses it. */
  byte[] jobLine(Job job) throws IOException {
    byte[] json = compact.writeValueAsBytes(job);
    serialized.put(job, json);
    return json;
  }

  /**
   * The snapshot, atomically, the previous one kept as {@code queue.json.bak}; false (nothing written) when a snapshot
   * of a later sequence was written meanwhile.
   */
  boolean write(QueueFile queue, long upTo) throws IOException {
    synchronized (snapshotLock) {
      if (upTo < snapshotSequence) {
        return false;
      }
      if (Files.exists(file)) {
        keepBackup();
      }
      AtomicFiles.write(file, serialize(queue, upTo));
      snapshotSequence = upTo;
      snapshotOnDisk = true;
      compactions.increment();
      return true;
    }
  }

  /**
   * {@code queue.json.bak} becomes the current file: linked under a temporary name, renamed over the old backup (so
   * there is always one), made durable with the folder by the write that follows. A filesystem without hard links
   * gets a copy.
   */
  private void keepBackup() throws IOException {
    Path link = file.resolveSibling("." + backup().getFileName() + ".link");
    DurableFiles.delete(link);
    try {
      DurableFiles.link(link, file);
    } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
      AtomicFiles.write(backup(), Files.readAllBytes(file));
      return;
    }
    DurableFiles.rename(link, backup(), true);
    // Renaming a link over a link to the same file does nothing (POSIX) and leaves the temporary name.
    DurableFiles.delete(link);
  }

  /**
   * The file's bytes: one job a line, each job's JSON reused from the previous save while the queue holds the same
   * (immutable) {@link Job} instance, so a commit serializes only the jobs that changed; the rest of the file (schema,
   * lanes, incidents) is written by Jackson around them.
   */
  private byte[] serialize(QueueFile queue, long upTo) throws IOException {
    byte[] plain = compact.writeValueAsBytes(new QueueFile(QueueStore.SCHEMA, List.of(), queue.lanes(),
        queue.incidents()));
    // The journal sequence the snapshot includes goes before "jobs": {"schema":4,"sequence":N,"jobs":[...
    int jobsAt = indexOf(plain, EMPTY_JOBS);
    if (jobsAt < 0) {
      throw new IllegalStateException("queue envelope without " + new String(EMPTY_JOBS, StandardCharsets.UTF_8));
    }
    byte[] field = ("\"sequence\":" + upTo + ",").getBytes(StandardCharsets.UTF_8);
    byte[] envelope = new byte[plain.length + field.length];
    System.arraycopy(plain, 0, envelope, 0, jobsAt);
    System.arraycopy(field, 0, envelope, jobsAt, field.length);
    System.arraycopy(plain, jobsAt, envelope, jobsAt + field.length, plain.length - jobsAt);
    // "jobs" is the record's second component, after the numeric schema: its first occurrence is the field itself.
    int at = indexOf(envelope, EMPTY_JOBS);
    if (at < 0) {
      throw new IllegalStateException("queue envelope without " + new String(EMPTY_JOBS, StandardCharsets.UTF_8));
    }
    int split = at + EMPTY_JOBS.length - 1;
    List<Job> jobs = queue.jobs();
    Map<Job, byte[]> cache = serialized;
    IdentityHashMap<Job, byte[]> next = new IdentityHashMap<>(jobs.size() * 2);
    byte[][] lines = new byte[jobs.size()][];
    int length = envelope.length + (jobs.isEmpty() ? 0 : 1);
    for (int i = 0; i < lines.length; i++) {
      Job job = jobs.get(i);
      byte[] json = cache.get(job);
      lines[i] = json != null ? json : compact.writeValueAsBytes(job);
      next.put(job, lines[i]);
      length += lines[i].length + (i == 0 ? 1 : 2);
    }
    // One buffer of the exact size: the unchanged jobs are copied once, never serialized again.
    byte[] out = new byte[length];
    System.arraycopy(envelope, 0, out, 0, split);
    int position = split;
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        out[position++] = ',';
      }
      out[position++] = '\n';
      System.arraycopy(lines[i], 0, out, position, lines[i].length);
      position += lines[i].length;
    }
    if (lines.length > 0) {
      out[position++] = '\n';
    }
    System.arraycopy(envelope, split, out, position, envelope.length - split);
    serialized = java.util.Collections.synchronizedMap(next);
    return out;
  }

  private static int indexOf(byte[] bytes, byte[] part) {
    outer:
    for (int i = 0; i <= bytes.length - part.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (bytes[i + j] != part[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
