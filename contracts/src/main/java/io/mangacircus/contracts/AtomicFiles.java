package io.mangacircus.contracts;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The on-disk half of the state-file contract (docs/architecture.md §3), shared by every service: a file written here
 * is seen with either its old or its new content, never torn, even after a crash or a power cut (its folders are
 * created with {@link DurableFiles}, the rename is made durable before the call returns).
 */
public final class AtomicFiles {

  private AtomicFiles() {
  }

  /** Temp file in the same folder, fsync, rename over the target, fsync the folder. */
  public static void write(Path target, byte[] content) throws IOException {
    Path folder = target.toAbsolutePath().getParent();
    DurableFiles.createDirectories(folder);
    Path temp = Files.createTempFile(folder, "." + target.getFileName() + ".", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      DurableFiles.rename(temp, target, true);
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
