package io.mangacircus.launcher.lock;

import io.mangacircus.contracts.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * An OS file lock that makes one process the owner of a service's data (for example
 * {@code data/scraper/daemon.lock}). The kernel drops it when the process dies, so a lock file left by a
 * killed process never blocks the next start.
 */
public final class ProcessLock implements AutoCloseable {

  /** What a probe of a lock file found. */
  public enum Probe { ABSENT, FREE, HELD }

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private ProcessLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock or says who holds it.
   *
   * @param owner written into the file for operators (for example {@code scraper pid 1234})
   * @throws LockHeldException when another process (or this one) already holds it
   */
  public static ProcessLock acquire(Path file, String owner) throws IOException {
    FileChannel channel = DurableFiles.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      String holder = readHolder(channel);
      channel.close();
      throw new LockHeldException(file, holder);
    }
    channel.truncate(0);
    channel.write(ByteBuffer.wrap((owner + " since " + Instant.now() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
    channel.force(true);
    return new ProcessLock(file, channel, lock);
  }

  /** Read-only look at a lock file: absent, free (nobody running) or held (a process owns it). */
  public static Probe probe(Path file) throws IOException {
    FileChannel channel;
    try {
      // WRITE is needed for an exclusive tryLock; the file is neither created nor modified.
      channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      return Probe.ABSENT;
    }
    try (channel) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return Probe.HELD;
      }
      lock.release();
      return Probe.FREE;
    } catch (OverlappingFileLockException e) {
      return Probe.HELD;
    }
  }

  /** Who wrote the lock file last (its text), for messages. */
  public static String holderOf(Path file) {
    try {
      return Files.readString(file).trim();
    } catch (IOException e) {
      return "unknown holder";
    }
  }

  private static String readHolder(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(512);
      channel.read(buffer, 0);
      return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "unknown holder";
    }
  }

  /** The lock file. */
  public Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
