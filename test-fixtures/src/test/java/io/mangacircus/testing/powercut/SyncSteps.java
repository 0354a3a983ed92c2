package io.mangacircus.testing.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The writes and fsyncs the tests make, and a folder read back as one map to compare whole trees. */
final class SyncSteps {

  private SyncSteps() {
  }

  /** Creates or overwrites {@code file} and fsyncs it (not its folder). */
  static void writeSynced(Path file, String text) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      writeFully(channel, text);
      channel.force(true);
    }
  }

  static void writeFully(FileChannel channel, String text) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  /** Makes the creates, renames and deletes inside {@code folder} durable. */
  static void fsyncFolder(Path folder) throws IOException {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** Relative path to text; a directory is its path with a trailing '/' and an empty text. */
  static Map<String, String> treeOf(Path folder) throws IOException {
    Map<String, String> tree = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : (Iterable<Path>) paths.skip(1)::iterator) {
        String name = folder.relativize(path).toString();
        if (Files.isDirectory(path)) {
          tree.put(name + "/", "");
        } else {
          tree.put(name, Files.readString(path));
        }
      }
    }
    return tree;
  }
}
