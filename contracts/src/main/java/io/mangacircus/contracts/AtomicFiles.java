package io.mangacircus.contracts;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The on-disk half of the state-file contract (docs/architecture.md §3), shared by every service: a file written here
 * is seen with either its old or its new content, never torn, even after a crash.
 */
public final class AtomicFiles {

  private AtomicFiles() {
  }

  /** Temp file in the same folder, fsync, rename over the target, fsync the folder. */
  public static void write(Path target, byte[] content) throws IOException {
    Path folder = target.toAbsolutePath().getParent();
    Files.createDirectories(folder);
    Path temp = Files.createTempFile(folder, "." + target.getFileName() + ".", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("the filesystem of " + folder + " cannot rename atomically", e);
      }
      fsyncFolder(folder);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Makes a rename inside {@code folder} durable. */
  public static void fsyncFolder(Path folder) throws IOException {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
