package io.mangacircus.reader.library;

import io.mangacircus.contracts.library.LibraryLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The library's rule of where an entry really is: a series or chapter folder is a real folder (not a symbolic link)
 * with a plain name inside the library, and a page or manifest file resolves inside the library. Each check costs as
 * few system calls as it can (one {@code lstat} for a plain entry): a scan makes 500,000 of them. Blocking.
 */
final class LibraryPaths {

  static final String SERIES = "series ";
  static final String CHAPTER = "chapter ";

  private final Path root;
  private volatile Path realRoot;

  /** @param root the library folder, absolute and normalized */
  LibraryPaths(Path root) {
    this.root = root;
  }

  /**
   * What in {@code folder} could be a library entry, by name: folders, links to folders and links to nothing. Hidden
   * entries (staging folders), files and links to files are left out.
   */
  static List<Path> entries(Path folder, String what) {
    return entries(folder, what, "").stream().map(Entry::path).toList();
  }

  /**
   * One entry of a folder as {@link #entries(Path, String, String)} found it.
   *
   * @param plainFolder its {@code lstat} said a folder, not a link: by the rule its own real path
   */
  record Entry(String name, Path path, boolean plainFolder) {
  }

  /** {@link #entries(Path, String)} with each entry's name and kind; {@code what + whose} names the folder. */
  static List<Entry> entries(Path folder, String what, String whose) {
    try (Stream<Path> children = Files.list(folder)) {
      // Each name taken once, not once per comparison.
      return children.map(LibraryPaths::entry).filter(java.util.Objects::nonNull)
          .sorted(Comparator.comparing(Entry::name)).toList();
    } catch (NoSuchFileException e) {
      throw new LibraryFiles.NotFoundException("no " + what + whose, "does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + whose + ": " + e.getMessage(), e);
    }
  }

  /** A folder, a link to a folder, or a link to nothing, else null; one {@code lstat} for a plain folder or file. */
  private static Entry entry(Path path) {
    String name = path.getFileName().toString();
    if (LibraryLayout.isPrivate(name)) {
      return null;
    }
    BasicFileAttributes attributes;
    try {
      attributes = lstat(path);
    } catch (IOException e) {
      return null;  // as Files.isDirectory and Files.isSymbolicLink answer for what they cannot read
    }
    if (attributes == null) {
      return null;
    }
    if (attributes.isSymbolicLink()) {
      return Files.isDirectory(path) || !Files.exists(path) ? new Entry(name, path, false) : null;
    }
    return attributes.isDirectory() ? new Entry(name, path, true) : null;
  }

  /** What an entry is called in messages: {@code series circus} or {@code chapter circus/chapter-0001}. */
  static String what(String kind, String seriesId, String name) {
    return seriesId == null ? kind + name : kind + seriesId + "/" + name;
  }

  /** The library's rule refused an entry: {@code reason} reads after its name ("does not exist"). */
  static final class Refused extends Exception {
    final String reason;

    Refused(String reason) {
      super(reason, null, false, false);
      this.reason = reason;
    }
  }

  /**
   * An entry could not be read or resolved. Worded only when it is reported: a scan checks 500,000 entries, and a
   * message made ahead for each (what the entry is called) was 35 MB of every scan's garbage.
   */
  static final class Unresolvable extends Exception {
    private final String verb;
    private final IOException failure;

    Unresolvable(String verb, IOException failure) {
      super(verb, failure, false, false);
      this.verb = verb;
      this.failure = failure;
    }

    UncheckedIOException unchecked(String what) {
      return new UncheckedIOException(verb + what + ": " + failure.getMessage(), failure);
    }
  }

  /** The real path of a series folder by the library's rule ({@link #folder(Path, String)}). */
  Path seriesFolder(String seriesId) {
    Path library;
    try {
      library = realRoot();
    } catch (NoSuchFileException e) {
      throw new LibraryFiles.NotFoundException("no series " + seriesId, "does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve the library folder: " + e.getMessage(), e);
    }
    return folder(library, seriesId, SERIES, null);
  }

  /** {@link #folder(Path, String)}, refused as "no " + the entry's name ({@link #what}). */
  Path folder(Path parent, String name, String kind, String seriesId) {
    try {
      return folder(parent, name);
    } catch (Refused e) {
      throw new LibraryFiles.NotFoundException("no " + what(kind, seriesId, name), e.reason);
    } catch (Unresolvable e) {
      throw e.unchecked(what(kind, seriesId, name));
    }
  }

  /**
   * The real path of a series or chapter folder by the library's rule: not a symbolic link (a link inside the library
   * would show one chapter under two names, counted twice, its read marks split), a folder, inside the library.
   * {@code parent} is a real folder inside the library and {@code name} a plain name, so an entry that is not a link is
   * its own real path: one {@code lstat}, no path resolution (a scan reads 100,000 of them).
   */
  private Path folder(Path parent, String name) throws Refused, Unresolvable {
    Path path = parent.resolve(name);
    BasicFileAttributes attributes = attributes(path);
    if (attributes.isSymbolicLink()) {
      String reason;
      try {
        reason = path.toRealPath().startsWith(realRoot())
            ? "is a symbolic link to another folder of the library (only real folders are published)"
            : "resolves outside the library";
      } catch (NoSuchFileException e) {
        reason = "is a symbolic link to nothing";
      } catch (IOException e) {
        reason = "is a symbolic link that cannot be resolved (" + e.getClass().getSimpleName() + ")";
      }
      throw new Refused(reason);
    }
    if (!attributes.isDirectory()) {
      throw new Refused("is not a folder");
    }
    return path;
  }

  /**
   * The real path of a file in a real chapter folder, which must lie inside the library: a plain entry is its own real
   * path (one {@code lstat}); a symbolic link is resolved and must land inside the library.
   *
   * @param regular whether it must be a regular file ("is not a file" otherwise)
   */
  Path file(Path folder, String name, boolean regular) throws Refused, Unresolvable {
    Path path = folder.resolve(name);
    BasicFileAttributes attributes = attributes(path);
    Path real = path;
    boolean isFile = attributes.isRegularFile();
    if (attributes.isSymbolicLink()) {
      real = inside(path);
      isFile = Files.isRegularFile(real);
    }
    if (regular && !isFile) {
      throw new Refused("is not a file");
    }
    return real;
  }

  /** What {@code path} is, not following a link at its end; "does not exist" when nothing is there. */
  private static BasicFileAttributes attributes(Path path) throws Refused, Unresolvable {
    BasicFileAttributes attributes;
    try {
      attributes = lstat(path);
    } catch (IOException e) {
      throw new Unresolvable("cannot read ", e);
    }
    if (attributes == null) {
      throw new Refused("does not exist");
    }
    return attributes;
  }

  /** Options passed as kept arrays and a kept set, not new ones (varargs) per call: a scan makes 500,000 calls. */
  private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};
  /**
   * Where the file system has POSIX attributes, they are read as such: the JDK then hands back what {@code lstat}
   * filled, not that wrapped once more as basic attributes (one object fewer per call).
   */
  private static final Class<? extends BasicFileAttributes> LSTAT_VIEW = java.nio.file.FileSystems.getDefault()
      .supportedFileAttributeViews().contains("posix") ? java.nio.file.attribute.PosixFileAttributes.class
      : BasicFileAttributes.class;

  private static BasicFileAttributes lstat(Path path) throws IOException {
    try {
      return Files.readAttributes(path, LSTAT_VIEW, NO_FOLLOW);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The real path of {@code path}, which must exist and lie inside the library's real path. */
  private Path inside(Path path) throws Refused, Unresolvable {
    try {
      Path real = path.toRealPath();
      if (!real.startsWith(realRoot())) {
        // The reader is not told why: the layout outside stays private.
        throw new Refused("resolves outside the library");
      }
      return real;
    } catch (NoSuchFileException e) {
      throw new Refused("does not exist");
    } catch (IOException e) {
      throw new Unresolvable("cannot resolve ", e);
    }
  }

  Path realRoot() throws IOException {
    Path known = realRoot;
    if (known == null) {
      try {
        known = root.toRealPath();
      } catch (NoSuchFileException e) {
        throw new NoSuchFileException("the library folder " + root + " does not exist yet");
      }
      realRoot = known;
    }
    return known;
  }
}
