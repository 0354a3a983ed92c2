package io.mangacircus.testing.powercut;

import java.util.Map;
import java.util.TreeMap;

/** A file or directory of the model and what a cut keeps of it; its identity is the object (inodes get reused). */
final class Node {

  private final boolean directory;
  private final Map<String, Node> children;
  private Map<String, Node> durableChildren;
  private byte[] durableContent;

  private Node(boolean directory) {
    this.directory = directory;
    this.children = directory ? new TreeMap<>() : Map.of();
    this.durableChildren = directory ? new TreeMap<>() : Map.of();
  }

  static Node file() {
    return new Node(false);
  }

  static Node directory() {
    return new Node(true);
  }

  boolean isDirectory() {
    return directory;
  }

  /** Current entries by name (live, changed by the tree). */
  Map<String, Node> children() {
    return children;
  }

  /** Entries as of the directory's last fsync. */
  Map<String, Node> durableChildren() {
    return durableChildren;
  }

  /** Content as of the file's last fsync; null if it was never synced (a cut leaves it empty). */
  byte[] durableContent() {
    return durableContent;
  }

  void syncChildren() {
    durableChildren = new TreeMap<>(children);
  }

  void syncContent(byte[] content) {
    durableContent = content;
  }
}
