package io.mangacircus.reader.library;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Page files kept open between CBZ sends (a published page file never changes; a chapter is replaced as a whole by a
 * new folder): at most {@code limit} open handles kept, each keyed by its path and the file's identity, counted while a
 * send uses it so that it is never closed under that send, closed once idle. Thread-safe.
 */
public final class OpenPageFiles {

  /** What tells one file from its replacement at the same path: inode (file key), size and modification time. */
  public record Identity(Object fileKey, long size, long modifiedMillis) {

    /** The identity of {@code path} now (not following a last link); a missing file throws NoSuchFileException. */
    public static Identity of(Path path) throws IOException {
      BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return new Identity(a.fileKey(), a.size(), a.lastModifiedTime().toMillis());
    }

    /** The identity of {@code path}, or null when there is no such file. */
    public static Identity ofOrNull(Path path) throws IOException {
      try {
        return of(path);
      } catch (NoSuchFileException e) {
        return null;
      }
    }
  }

  /** An open page file lent to one send; {@link #release} it exactly once when the send is done. */
  public final class Handle {
    private final Entry entry;
    private boolean released;

    private Handle(Entry entry) {
      this.entry = entry;
    }

    public FileChannel channel() {
      return entry.channel;
    }

    /** The send is done with the file: it stays open for the next one unless it was dropped meanwhile. */
    public void release() {
      synchronized (OpenPageFiles.this) {
        if (released) {
          return;
        }
        released = true;
        entry.users--;
        entry.lastUsed = clock.instant();
        if (entry.users == 0 && entry.dropped) {
          close(entry);
        }
      }
    }
  }

  private static final class Entry {
    final Path path;
    final Identity identity;
    final FileChannel channel;
    int users;
    boolean dropped;
    Instant lastUsed;

    Entry(Path path, Identity identity, FileChannel channel) {
      this.path = path;
      this.identity = identity;
      this.channel = channel;
    }
  }

  private final int limit;
  private final Duration idle;
  private final InstantSource clock;
  /** Kept handles, least recently used first. */
  private final LinkedHashMap<Path, Entry> kept = new LinkedHashMap<>(16, 0.75f, true);
  private int open;

  /**
   * @param limit how many handles are kept open at most (handles in use beyond it are closed when released)
   * @param idle how long an unused handle stays open
   */
  public OpenPageFiles(int limit, Duration idle, InstantSource clock) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit " + limit);
    }
    this.limit = limit;
    this.idle = idle;
    this.clock = clock;
  }

  /**
   * The page file at {@code path}, which must still be the file {@code expected} names: the kept handle, or the file
   * opened now (blocking) and kept. A kept handle of another file at that path (a replaced chapter) is dropped.
   *
   * @throws IOException when the file is missing or is not the expected one any more
   */
  public Handle acquire(Path path, Identity expected) throws IOException {
    synchronized (this) {
      Entry known = kept.get(path);
      if (known != null) {
        if (known.identity.equals(expected)) {
          known.users++;
          return new Handle(known);
        }
        drop(known);
      }
    }
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    Identity now;
    try {
      now = Identity.of(path);
      if (!now.equals(expected) || channel.size() != expected.size()) {
        throw new IOException(path.getFileName() + " changed since the archive was laid out");
      }
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    Entry entry = new Entry(path, now, channel);
    entry.users = 1;
    entry.lastUsed = clock.instant();
    synchronized (this) {
      open++;
      Entry raced = kept.get(path);
      if (raced != null) {
        drop(raced);
      }
      kept.put(path, entry);
      trim();
      return new Handle(entry);
    }
  }

  /** Drops every kept handle of a file under {@code folder} (a chapter replaced or deleted); in-use ones close later. */
  public synchronized void forgetUnder(Path folder) {
    List<Entry> gone = new ArrayList<>();
    for (Entry e : kept.values()) {
      if (e.path.startsWith(folder)) {
        gone.add(e);
      }
    }
    gone.forEach(this::drop);
  }

  /** How long an unused handle stays open. */
  public Duration idle() {
    return idle;
  }

  /** Closes the handles nobody used for the idle time; call it now and then. */
  public synchronized void closeIdle() {
    Instant before = clock.instant().minus(idle);
    List<Entry> gone = new ArrayList<>();
    for (Entry e : kept.values()) {
      if (e.users == 0 && e.lastUsed.isBefore(before)) {
        gone.add(e);
      }
    }
    gone.forEach(this::drop);
  }

  /** Closes every kept handle (the reader stops); those in use close when their send ends. */
  public synchronized void closeAll() {
    new ArrayList<>(kept.values()).forEach(this::drop);
  }

  /** Open page files right now: kept ones plus those still in use after being dropped. */
  public synchronized int openFiles() {
    return open;
  }

  /** Handles kept for the next send (at most the limit). */
  public synchronized int keptFiles() {
    return kept.size();
  }

  /** Over the limit: the least recently used handles go, closed at once when unused or when their send ends. */
  private void trim() {
    Iterator<Map.Entry<Path, Entry>> eldest = kept.entrySet().iterator();
    while (kept.size() > limit && eldest.hasNext()) {
      Entry e = eldest.next().getValue();
      eldest.remove();
      e.dropped = true;
      if (e.users == 0) {
        close(e);
      }
    }
  }

  private void drop(Entry e) {
    if (kept.get(e.path) == e) {
      kept.remove(e.path);
    }
    e.dropped = true;
    if (e.users == 0) {
      close(e);
    }
  }

  private void close(Entry e) {
    if (!e.channel.isOpen()) {
      return;
    }
    open--;
    try {
      e.channel.close();
    } catch (IOException ignored) {
      // read-only: nothing was lost
    }
  }

  @Override
  public String toString() {
    return "OpenPageFiles[" + keptFiles() + " kept, " + openFiles() + " open, limit " + limit + "]";
  }
}
