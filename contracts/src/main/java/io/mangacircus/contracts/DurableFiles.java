package io.mangacircus.contracts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The namespace half of the fsync discipline (docs/resilience.md, "Durability"): a folder created, a file renamed,
 * created or deleted here is durable when the call returns, because the folder holding each changed entry was fsynced
 * (a new or renamed entry survives a power cut only then). Every create, rename and unlink of the product's data goes
 * through this class or {@link AtomicFiles}.
 */
public final class DurableFiles {

  /** A file only its owner may read and write (0600). */
  private static final String OWNER_FILE = "rw-------";

  /** A folder only its owner may list, enter and change (0700). */
  private static final String OWNER_FOLDER = "rwx------";

  private DurableFiles() {
  }

  /**
   * Creates {@code folder} and any missing parent, each new one made durable by fsyncing the folder that holds it
   * before the next level is created. Nothing is synced when the folder already exists.
   */
  public static Path createDirectories(Path folder) throws IOException {
    Path absolute = folder.toAbsolutePath();
    Deque<Path> missing = new ArrayDeque<>();
    for (Path level = absolute; level != null && !Files.isDirectory(level); level = level.getParent()) {
      missing.push(level);
    }
    while (!missing.isEmpty()) {
      Path level = missing.pop();
      try {
        Files.createDirectory(level);
      } catch (FileAlreadyExistsException e) {
        if (!Files.isDirectory(level)) {
          throw e;
        }
        // Another thread created it; it still syncs the parent below, so the entry is durable either way.
      }
      fsyncFolder(level.getParent());
    }
    return folder;
  }

  /**
   * Renames {@code from} to {@code to} atomically (over an existing {@code to} when {@code replace}), then fsyncs the
   * folder that now holds it and, for a rename across folders, the one it left.
   *
   * @throws IOException also when the filesystem cannot rename atomically
   */
  public static void rename(Path from, Path to, boolean replace) throws IOException {
    try {
      if (replace) {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the filesystem of " + to.toAbsolutePath().getParent() + " cannot rename atomically", e);
    }
    Path target = to.toAbsolutePath().getParent();
    Path source = from.toAbsolutePath().getParent();
    fsyncFolder(target);
    if (!source.equals(target)) {
      fsyncFolder(source);
    }
  }

  /** Deletes {@code file} (a file or an empty folder) if present and fsyncs its folder; true when it was there. */
  public static boolean delete(Path file) throws IOException {
    boolean deleted = Files.deleteIfExists(file);
    if (deleted) {
      fsyncFolder(file.toAbsolutePath().getParent());
    }
    return deleted;
  }

  /**
   * Deletes a folder and everything in it (deepest first, links not followed), then fsyncs the folder that held it:
   * once this returns the folder is gone for good. A cut before that may leave the folder with some of its files.
   */
  public static void deleteTree(Path folder) throws IOException {
    if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> entries = Files.walk(folder)) {
      for (Path entry : entries.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(entry);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    fsyncFolder(folder.toAbsolutePath().getParent());
  }

  /**
   * Opens {@code file} with {@code options} ({@code WRITE}, {@code APPEND}, ...), creating it and its folders durably
   * when it is missing: data forced through the channel is then durable, the file's entry included.
   */
  public static FileChannel open(Path file, OpenOption... options) throws IOException {
    if (Files.exists(file)) {
      return FileChannel.open(file, options);
    }
    Path folder = file.toAbsolutePath().getParent();
    createDirectories(folder);
    Set<OpenOption> creating = new HashSet<>(Arrays.asList(options));
    creating.add(StandardOpenOption.CREATE);
    FileChannel channel = FileChannel.open(file, creating);
    try {
      fsyncFolder(folder);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return channel;
  }

  /**
   * Makes {@code link} a second name of {@code existing} (a hard link) and fsyncs its folder.
   *
   * @throws UnsupportedOperationException or {@link java.nio.file.FileSystemException} when the filesystem has no
   *     hard links (the caller copies instead)
   */
  public static void link(Path link, Path existing) throws IOException {
    Files.createLink(link, existing);
    fsyncFolder(link.toAbsolutePath().getParent());
  }

  /**
   * Creates {@code file} empty, readable and writable by its owner only (0600) whatever the process's umask, its folders
   * durably, and makes its entry durable; a file already there is left as it is. Where the filesystem has no POSIX
   * permissions, its own defaults apply.
   */
  public static void createOwnerOnlyFile(Path file) throws IOException {
    Path folder = file.toAbsolutePath().getParent();
    createDirectories(folder);
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(OWNER_FILE)));
    } catch (FileAlreadyExistsException e) {
      return;
    } catch (UnsupportedOperationException e) {
      try {
        Files.createFile(file);
      } catch (FileAlreadyExistsException already) {
        return;
      }
    }
    // The umask may have taken bits away at creation (never added any): set the exact mode.
    restrictToOwner(file);
    fsyncFolder(folder);
  }

  /**
   * Gives {@code path} owner-only permissions, 0600 for a file and 0700 for a folder, whatever they were; nothing where
   * the filesystem has no POSIX permissions.
   *
   * @throws IOException also when this process may not change them (it does not own {@code path})
   */
  public static void restrictToOwner(Path path) throws IOException {
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
          Files.isDirectory(path) ? OWNER_FOLDER : OWNER_FILE));
    } catch (UnsupportedOperationException e) {
      // not a POSIX filesystem: its own defaults apply
    }
  }

  /** Makes the entries of {@code folder} durable (the names created, renamed or deleted in it). */
  public static void fsyncFolder(Path folder) throws IOException {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
