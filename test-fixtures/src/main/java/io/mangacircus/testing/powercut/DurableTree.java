package io.mangacircus.testing.powercut;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** The model under the real root: each directory's current and last-synced entries, each file's last-synced bytes. */
final class DurableTree {

  private final Path root;
  private final Node rootNode;
  private final Object lock = new Object();
  private int syncs;

  private DurableTree(Path root, Node rootNode) {
    this.root = root;
    this.rootNode = rootNode;
  }

  /** Everything already under {@code root} counts as durable; the root itself is durable by assumption. */
  static DurableTree scan(Path root) throws IOException {
    Node rootNode = Node.directory();
    scanInto(root, rootNode);
    return new DurableTree(root, rootNode);
  }

  private static void scanInto(Path folder, Node directory) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path entry : entries) {
        BasicFileAttributes attributes =
            Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        Node child;
        if (attributes.isDirectory()) {
          child = Node.directory();
          scanInto(entry, child);
        } else if (attributes.isRegularFile()) {
          child = Node.file();
          child.syncContent(Files.readAllBytes(entry));
        } else {
          throw new IOException(
              entry + " is neither a regular file nor a directory: the power-cut model has only those");
        }
        directory.children().put(entry.getFileName().toString(), child);
      }
    }
    directory.syncChildren();
  }

  /** Absolute, normalized, symbolic links resolved; every path the tree takes is under it, made the same way. */
  Path root() {
    return root;
  }

  boolean contains(Path real) {
    return real.startsWith(root);
  }

  /** Runs a change on the real disk and its mirror in the model as one step for every other thread. */
  <T> T locked(IoSupplier<T> step) throws IOException {
    synchronized (lock) {
      return step.get();
    }
  }

  /** The node the model has at {@code real}, or null. */
  Node find(Path real) {
    synchronized (lock) {
      Node node = rootNode;
      for (Path name : root.relativize(real)) {
        if (name.toString().isEmpty()) {
          continue;
        }
        node = node.isDirectory() ? node.children().get(name.toString()) : null;
        if (node == null) {
          return null;
        }
      }
      return node;
    }
  }

  /** The directory node that holds (or will hold) the entry {@code real}. */
  Node folderOf(Path real) throws IOException {
    Path parent = real.getParent();
    Node folder = real.equals(root) || parent == null ? null : find(parent);
    if (folder == null || !folder.isDirectory()) {
      throw new IOException("the power-cut model has no folder " + parent + " to hold " + real
          + " (created around the filesystem, e.g. through java.io or the default filesystem?)");
    }
    return folder;
  }

  void link(Path real, Node node) throws IOException {
    synchronized (lock) {
      folderOf(real).children().put(real.getFileName().toString(), node);
    }
  }

  void unlink(Path real) throws IOException {
    synchronized (lock) {
      folderOf(real).children().remove(real.getFileName().toString());
    }
  }

  /** A directory's fsync: its entries as they are now become what a cut keeps. */
  void syncDirectory(Node directory) {
    synchronized (lock) {
      directory.syncChildren();
      syncs++;
    }
  }

  /** A file's fsync: its bytes as they are now (read under the lock, so two syncs never land out of order). */
  void syncFile(Node file, IoSupplier<byte[]> content) throws IOException {
    synchronized (lock) {
      file.syncContent(content.get());
      syncs++;
    }
  }

  int syncs() {
    synchronized (lock) {
      return syncs;
    }
  }

  /** Writes into {@code target} (on the default filesystem, empty or missing) what a power cut now would leave. */
  Path cut(Path target) throws IOException {
    if (target.getFileSystem() != FileSystems.getDefault()) {
      throw new IllegalArgumentException("a cut is written to the default filesystem, not to " + target);
    }
    Files.createDirectories(target);
    try (Stream<Path> entries = Files.list(target)) {
      if (entries.findAny().isPresent()) {
        throw new DirectoryNotEmptyException(target.toString());
      }
    }
    synchronized (lock) {
      render(rootNode, target, Collections.newSetFromMap(new IdentityHashMap<>()));
    }
    return target;
  }

  private static void render(Node directory, Path folder, Set<Node> ancestors) throws IOException {
    ancestors.add(directory);
    for (Map.Entry<String, Node> entry : directory.durableChildren().entrySet()) {
      Node node = entry.getValue();
      Path at = folder.resolve(entry.getKey());
      if (!node.isDirectory()) {
        byte[] content = node.durableContent();
        Files.write(at, content == null ? new byte[0] : content);
      } else if (!ancestors.contains(node)) {
        // A directory can be durably inside its own subtree when each half of two moves was synced in a different
        // folder; no disk can show that loop, so it is cut there.
        Files.createDirectory(at);
        render(node, at, ancestors);
      }
    }
    ancestors.remove(directory);
  }
}
