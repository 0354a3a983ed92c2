package io.mangacircus.launcher;

import io.mangacircus.contracts.DurableFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The data folder's files that hold secrets or personal data ({@link DataLayout#privateFiles()}), which only their
 * owner may read: each 0600 and its folder 0700. Finds those that are wider (for {@code check}) and repairs them (at
 * start). Where the filesystem has no POSIX permissions there is nothing to find or repair.
 */
public final class PrivateFiles {

  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private final DataLayout data;

  public PrivateFiles(DataLayout data) {
    this.data = data;
  }

  /** The private files present, then the folders holding them. */
  public List<Path> present() {
    Set<Path> paths = new LinkedHashSet<>();
    List<Path> folders = new ArrayList<>();
    for (Path file : data.privateFiles()) {
      if (Files.isRegularFile(file)) {
        paths.add(file);
        folders.add(file.getParent());
      }
    }
    paths.addAll(folders);
    return List.copyOf(paths);
  }

  /** One line per present private file or folder that others may use: which, its permissions, what to do. */
  public List<String> wider() {
    List<String> found = new ArrayList<>();
    for (Path path : present()) {
      permissions(path).filter(PrivateFiles::opensToOthers).ifPresent(p -> found.add(path + " is "
          + PosixFilePermissions.toString(p) + " but holds secrets or personal data: owner-only ("
          + (Files.isDirectory(path) ? "0700" : "0600") + ") expected; the next start repairs it, or chmod "
          + (Files.isDirectory(path) ? "700 " : "600 ") + path));
    }
    return found;
  }

  /**
   * Makes every present private file and folder that others may use owner-only; one line per change, and one per
   * path this process may not change (it does not own it).
   */
  public List<String> repair() {
    List<String> changes = new ArrayList<>();
    for (Path path : present()) {
      Optional<Set<PosixFilePermission>> before = permissions(path).filter(PrivateFiles::opensToOthers);
      if (before.isEmpty()) {
        continue;
      }
      try {
        DurableFiles.restrictToOwner(path);
        changes.add("made " + path + " owner-only (it was " + PosixFilePermissions.toString(before.get())
            + "): it holds secrets or personal data");
      } catch (IOException e) {
        changes.add("cannot make " + path + " owner-only (it is " + PosixFilePermissions.toString(before.get())
            + "): " + e + "; it holds secrets or personal data: chmod it, or run as its owner");
      }
    }
    return changes;
  }

  private static boolean opensToOthers(Set<PosixFilePermission> permissions) {
    return permissions.stream().anyMatch(OTHERS::contains);
  }

  private static Optional<Set<PosixFilePermission>> permissions(Path path) {
    try {
      return Optional.of(Files.getPosixFilePermissions(path));
    } catch (UnsupportedOperationException | IOException e) {
      return Optional.empty();
    }
  }
}
