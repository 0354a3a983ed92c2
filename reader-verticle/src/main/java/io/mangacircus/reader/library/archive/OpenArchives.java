package io.mangacircus.reader.library.archive;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The archives whose stored pages are being sent, each open once and shared by the sends of its pages rather than
 * opened and closed for every page: a book's pages are one file. Sends read by position only (sendfile with an offset
 * never moves a shared position), so one open file serves any number of them at once. An archive leaves the set when
 * more than {@code capacity} are open (the least recently sent first), when it was not sent from for
 * {@code idleNanos}, or when {@link #forgetAll()} is called after a scan; its file is closed once the last send that
 * holds it ends, so a send never loses its file midway and a deleted archive's space is not held for long.
 */
public final class OpenArchives {

  /** One archive's open file, and how many sends hold it. */
  public final class Lease {

    private final Key key;
    private final FileChannel channel;
    private int holders;
    private boolean retired;
    private long lastUsed;

    private Lease(Key key, FileChannel channel) {
      this.key = key;
      this.channel = channel;
    }

    /** The archive's open file: read it by position only, never close it (call {@link #release()}). */
    public FileChannel channel() {
      return channel;
    }

    /** The send that held this ended: the file is closed if the archive left the set and nothing holds it. */
    public void release() {
      boolean close;
      synchronized (OpenArchives.this) {
        holders--;
        close = retired && holders == 0;
      }
      if (close) {
        closeQuietly(channel);
      }
    }
  }

  // A file replaced by another of another size is another key: its sends never get the old one's open file.
  private record Key(Path file, long size) {
  }

  private final int capacity;
  private final long idleNanos;
  private final LongSupplier clock;
  private final LinkedHashMap<Key, Lease> open = new LinkedHashMap<>(16, 0.75f, true);
  private long lastSweep;

  /**
   * @param capacity how many archives stay open at most (file descriptors held between sends)
   * @param idleNanos how long an archive stays open without a send
   * @param clock nanoseconds, as {@link System#nanoTime()}
   */
  public OpenArchives(int capacity, long idleNanos, LongSupplier clock) {
    if (capacity < 1 || idleNanos < 1) {
      throw new IllegalArgumentException("capacity and idle time must be positive");
    }
    this.capacity = capacity;
    this.idleNanos = idleNanos;
    this.clock = clock;
    this.lastSweep = clock.getAsLong();
  }

  /**
   * Holds {@code file}'s open file for one send, opening it (without following links) when it is not open yet;
   * {@code size} is the archive's size when it was indexed. Call {@link Lease#release()} when the send ends.
   */
  public Lease lease(Path file, long size) throws IOException {
    Key key = new Key(file, size);
    synchronized (this) {
      Lease known = open.get(key);
      if (known != null) {
        return hold(known);
      }
    }
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    synchronized (this) {
      Lease raced = open.get(key);
      if (raced != null) {
        closeQuietly(channel);
        return hold(raced);
      }
      Lease lease = new Lease(key, channel);
      open.put(key, lease);
      hold(lease);
      trim();
      return lease;
    }
  }

  /** Every archive leaves the set (a scan saw the collection change): each is closed when its last send ends. */
  public synchronized void forgetAll() {
    for (Iterator<Lease> it = open.values().iterator(); it.hasNext(); ) {
      retire(it.next());
      it.remove();
    }
  }

  /** How many archives are open in the set now. */
  public synchronized int size() {
    return open.size();
  }

  private Lease hold(Lease lease) {
    lease.holders++;
    lease.lastUsed = clock.getAsLong();
    return lease;
  }

  // Called with the lock held, after a new archive was opened (the set grows only then), and idle ones swept at most
  // once a second so a send of an open archive never walks the set.
  private void trim() {
    Iterator<Map.Entry<Key, Lease>> eldest = open.entrySet().iterator();
    while (open.size() > capacity && eldest.hasNext()) {
      retire(eldest.next().getValue());
      eldest.remove();
    }
    long now = clock.getAsLong();
    if (now - lastSweep < 1_000_000_000L) {
      return;
    }
    lastSweep = now;
    for (Iterator<Lease> it = open.values().iterator(); it.hasNext(); ) {
      Lease lease = it.next();
      if (now - lease.lastUsed >= idleNanos && lease.holders == 0) {
        retire(lease);
        it.remove();
      }
    }
  }

  private static void retire(Lease lease) {
    lease.retired = true;
    if (lease.holders == 0) {
      closeQuietly(lease.channel);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // opened to read: nothing to lose
    }
  }
}
