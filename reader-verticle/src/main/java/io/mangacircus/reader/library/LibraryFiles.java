package io.mangacircus.reader.library;

import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.contracts.library.LibraryLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Read-only, traversal-proof access to published chapters, and the library's one rule of what is published: a series
 * or chapter is a real folder (not a symbolic link) with a plain name whose real path lies inside the library, and a
 * chapter has a valid {@code chapter.json} naming page files that exist inside the library. Page serving, series
 * pages, covers and the inventory scan all go through here, so they agree. Chapter manifests are cached because a
 * published chapter never changes in place (one published again replaces its cached manifest, {@link #admit}; a
 * whole-library scan, which a reader that missed a publication runs, reads cached ones again, {@link #listing}).
 * Blocking: call it off the event loop, except {@link #cached}.
 */
public final class LibraryFiles {

  private static final int CACHE_LIMIT = 4096;
  /** The largest read buffer a thread keeps for manifests (a bigger manifest gets a buffer of its own). */
  private static final int KEPT_BUFFER_BYTES = 64 * 1024;
  private static final ThreadLocal<byte[]> READ_BUFFER = ThreadLocal.withInitial(() -> new byte[8192]);

  /** No published series or chapter by that id. */
  public static final class NotFoundException extends RuntimeException {
    private final String reason;

    public NotFoundException(String message) {
      this(message, message);
    }

    /**
     * @param message what a reader is told
     * @param reason why, for the operator: may say what a reader is not told (that a folder is a symbolic link)
     */
    public NotFoundException(String message, String reason) {
      super(message, null, false, false);
      this.reason = reason;
    }

    /** Why the entry is not part of the library, for the operator (never the layout outside the library). */
    public String reason() {
      return reason;
    }
  }

  /** A series' published chapters by number, and the chapter folders the rule refused, with why. */
  public record Listing(List<Chapter> chapters, List<LibraryScan.Skipped> refused) {
    public Listing {
      chapters = List.copyOf(chapters);
      refused = List.copyOf(refused);
    }
  }

  private record Numbered(BigDecimal number, Chapter chapter) {
  }

  /** One page file of a published chapter, already resolved inside the library. */
  public record Page(int index, Path file, String sha256, String mediaType) {
  }

  /** A published chapter as its {@code chapter.json} describes it. */
  public record Chapter(String seriesId, String id, String seriesTitle, String source, String titleId, String number,
      String title, Instant publishedAt, List<Page> pages) {
    public Chapter {
      pages = List.copyOf(pages);
    }
  }

  private final Path root;
  private final Map<String, Chapter> manifests = new ConcurrentHashMap<>();
  private volatile Path realRoot;

  public LibraryFiles(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** Whether {@code id} can name a series or chapter folder: no separators, no dot segments, no leading dot. */
  public static boolean validId(String id) {
    // [A-Za-z0-9][A-Za-z0-9._-]{0,159} without "..", checked without a Matcher per call (a scan asks 300,000 times).
    return LibraryLayout.isPlainName(id, 160) && !id.contains("..");
  }

  /** The chapter if its manifest was read before; never touches the disk. */
  public Optional<Chapter> cached(String seriesId, String chapterId) {
    return Optional.ofNullable(manifests.get(seriesId + "/" + chapterId));
  }

  /** The library folder this reads. */
  public Path root() {
    return root;
  }

  /** Every published chapter of a series, by number; 404 when there is none. */
  public List<Chapter> chapters(String seriesId) {
    List<Chapter> chapters = listing(seriesId, true).chapters();
    if (chapters.isEmpty()) {
      throw new NotFoundException("no published chapter in series " + seriesId);
    }
    return chapters;
  }

  /**
   * A series' chapters by the library's rule, and every chapter folder it refused. Hidden folders (staging) and plain
   * files are not chapters and are passed over silently.
   *
   * @param remember whether manifests read now are cached (page serving) or not (a whole-library scan, which would
   *     only push the pages being read out of the cache: it reads every chapter from the disk and puts what it read
   *     in place of what is cached, adding nothing)
   * @throws NotFoundException when the series folder itself is refused
   */
  public Listing listing(String seriesId, boolean remember) {
    Path series = seriesFolder(requireId(seriesId));
    List<LibraryScan.Skipped> refused = new ArrayList<>();
    List<Numbered> numbered = new ArrayList<>();
    for (Path entry : entries(series, "series " + seriesId)) {
      String id = entry.getFileName().toString();
      if (!validId(id)) {
        refused.add(new LibraryScan.Skipped(seriesId + "/" + id, "not a plain folder name"));
        continue;
      }
      try {
        Chapter chapter = chapter(seriesId, id, series, remember);
        numbered.add(new Numbered(numberOf(chapter.number()), chapter));
      } catch (NotFoundException e) {
        refused.add(new LibraryScan.Skipped(seriesId + "/" + id, e.reason()));
      } catch (UncheckedIOException e) {
        refused.add(new LibraryScan.Skipped(seriesId + "/" + id,
            "cannot be read (" + e.getCause().getClass().getSimpleName() + ")"));
      }
    }
    // Each number parsed once, not once per comparison.
    numbered.sort(Comparator.comparing(Numbered::number, Comparator.nullsLast(Comparator.naturalOrder()))
        .thenComparing(n -> n.chapter().id()));
    List<Chapter> chapters = new ArrayList<>(numbered.size());
    numbered.forEach(n -> chapters.add(n.chapter()));
    return new Listing(chapters, refused);
  }

  /**
   * What in {@code folder} could be a library entry, by name: folders, links to folders and links to nothing. Hidden
   * entries (staging folders), files and links to files are left out.
   */
  List<Path> entries(Path folder, String what) {
    try (Stream<Path> children = Files.list(folder)) {
      // Each name taken once, not once per comparison.
      return children.map(p -> Map.entry(p.getFileName().toString(), p))
          .filter(e -> !LibraryLayout.isPrivate(e.getKey()))
          .filter(e -> folderOrLink(e.getValue()))
          .sorted(Map.Entry.comparingByKey()).map(Map.Entry::getValue).toList();
    } catch (NoSuchFileException e) {
      throw new NotFoundException("no " + what, "does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + ": " + e.getMessage(), e);
    }
  }

  /** A folder, a link to a folder, or a link to nothing; one {@code lstat} for a plain folder or file. */
  private static boolean folderOrLink(Path path) {
    BasicFileAttributes attributes;
    try {
      attributes = lstat(path);
    } catch (IOException e) {
      return false;  // as Files.isDirectory and Files.isSymbolicLink answer for what they cannot read
    }
    if (attributes == null) {
      return false;
    }
    if (attributes.isSymbolicLink()) {
      return Files.isDirectory(path) || !Files.exists(path);
    }
    return attributes.isDirectory();
  }

  /** Forgets the manifest read of a chapter: the next {@link #chapter} reads it again (it was replaced). */
  public void forget(String seriesId, String chapterId) {
    manifests.remove(seriesId + "/" + chapterId);
  }

  /** One published chapter. */
  public Chapter chapter(String seriesId, String chapterId) {
    return chapter(seriesId, chapterId, true);
  }

  private Chapter chapter(String seriesId, String chapterId, boolean remember) {
    return chapter(seriesId, chapterId, null, remember);
  }

  /** @param series the series' real folder when the caller resolved it already, else null */
  private Chapter chapter(String seriesId, String chapterId, Path series, boolean remember) {
    String key = requireId(seriesId) + "/" + requireId(chapterId);
    if (!remember) {
      // A whole-library scan reads every chapter from the disk, cached or not, and puts what it read in place of what
      // page serving cached: a chapter published again whose event this reader missed (a partitioned pair) is served
      // as it is now from the next scan on, and one the scan refuses is no longer served from the cache.
      try {
        Chapter read = read(seriesId, chapterId, series == null ? seriesFolder(seriesId) : series);
        manifests.computeIfPresent(key, (k, cached) -> read);
        return read;
      } catch (NotFoundException | UncheckedIOException e) {
        manifests.remove(key);
        throw e;
      }
    }
    Chapter known = manifests.get(key);
    if (known != null) {
      return known;
    }
    Chapter read = read(seriesId, chapterId, series == null ? seriesFolder(seriesId) : series);
    if (manifests.size() >= CACHE_LIMIT) {
      manifests.clear();
    }
    manifests.put(key, read);
    return read;
  }

  private Chapter read(String seriesId, String chapterId, Path series) {
    String what = "chapter " + seriesId + "/" + chapterId;
    Path folder = folder(series, chapterId, what);
    String unreadable = what + " has no readable chapter.json";
    ChapterManifest manifest;
    try {
      Path file = file(folder, ChapterManifest.FILE, "chapter.json of " + what, false);
      manifest = parseManifest(file);
    } catch (NotFoundException e) {
      throw new NotFoundException(unreadable, e.reason().equals("does not exist") ? "has no chapter.json"
          : "chapter.json " + e.reason());
    } catch (ChapterManifest.InvalidException e) {
      throw new NotFoundException(unreadable, e.getMessage());
    } catch (IOException e) {
      throw new NotFoundException(unreadable, "chapter.json cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    return admit(seriesId, chapterId, folder, manifest);
  }

  /** Reads and parses a {@code chapter.json} through this thread's buffer (no array per file for the usual sizes). */
  private static ChapterManifest parseManifest(Path file) throws IOException, ChapterManifest.InvalidException {
    byte[] buffer = READ_BUFFER.get();
    int length = 0;
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file, READ, NO_ATTRIBUTES)) {
      while (true) {
        if (length == buffer.length) {
          buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
        }
        int read = channel.read(java.nio.ByteBuffer.wrap(buffer, length, buffer.length - length));
        if (read < 0) {
          break;
        }
        length += read;
      }
    }
    if (buffer.length <= KEPT_BUFFER_BYTES) {
      READ_BUFFER.set(buffer);
    }
    return ChapterManifest.parse(buffer, length);
  }

  /**
   * A chapter whose manifest is already known (carried by a publication event), judged by the same rule as one read
   * from disk: its folders and every page file must be real and inside the library. Its {@code chapter.json} is not
   * read again. Blocking.
   *
   * @throws NotFoundException when the rule refuses it
   */
  public Chapter admit(String seriesId, String chapterId, ChapterManifest manifest) {
    String what = "chapter " + requireId(seriesId) + "/" + requireId(chapterId);
    Chapter admitted = admit(seriesId, chapterId, folder(seriesFolder(seriesId), chapterId, what), manifest);
    // A chapter published again (a new folder renamed over the old) replaces what page serving cached of the old one;
    // one nobody read yet is not added (the cache holds what readers open).
    manifests.computeIfPresent(seriesId + "/" + chapterId, (key, cached) -> admitted);
    return admitted;
  }

  private Chapter admit(String seriesId, String chapterId, Path folder, ChapterManifest manifest) {
    String what = "chapter " + seriesId + "/" + chapterId;
    if (manifest.pages().isEmpty()) {
      throw new NotFoundException(what + " has no pages", "chapter.json lists no pages");
    }
    List<Page> pages = new ArrayList<>();
    for (ChapterManifest.Page page : manifest.pages()) {
      String file = page.file();
      Path resolved;
      try {
        resolved = file(folder, file, "page " + file, true);
      } catch (NotFoundException e) {
        throw new NotFoundException(what + " misses page " + file, "page " + file + " " + e.reason());
      }
      pages.add(new Page(pages.size() + 1, resolved, page.sha256(), mediaType(file)));
    }
    return new Chapter(seriesId, chapterId, manifest.series().isEmpty() ? seriesId : manifest.series(),
        manifest.source(), manifest.titleId(), manifest.number(), manifest.title(), manifest.publishedAt(), pages);
  }

  /** The real path of a series folder by the library's rule ({@link #folder(Path, String, String)}). */
  private Path seriesFolder(String seriesId) {
    Path library;
    try {
      library = realRoot();
    } catch (NoSuchFileException e) {
      throw new NotFoundException("no series " + seriesId, "does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve the library folder: " + e.getMessage(), e);
    }
    return folder(library, seriesId, "series " + seriesId);
  }

  /**
   * The real path of a series or chapter folder by the library's rule: not a symbolic link (a link inside the library
   * would show one chapter under two names, counted twice, its read marks split), a folder, inside the library.
   * {@code parent} is a real folder inside the library and {@code name} a plain name, so an entry that is not a link is
   * its own real path: one {@code lstat}, no path resolution (a scan reads 100,000 of them).
   */
  private Path folder(Path parent, String name, String what) {
    Path path = parent.resolve(name);
    BasicFileAttributes attributes = attributes(path, what);
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
      throw new NotFoundException("no " + what, reason);
    }
    if (!attributes.isDirectory()) {
      throw new NotFoundException("no " + what, "is not a folder");
    }
    return path;
  }

  /**
   * The real path of a file in a real chapter folder, which must lie inside the library: a plain entry is its own real
   * path (one {@code lstat}); a symbolic link is resolved and must land inside the library.
   *
   * @param regular whether it must be a regular file ("is not a file" otherwise)
   */
  private Path file(Path folder, String name, String what, boolean regular) {
    Path path = folder.resolve(name);
    BasicFileAttributes attributes = attributes(path, what);
    Path real = path;
    boolean isFile = attributes.isRegularFile();
    if (attributes.isSymbolicLink()) {
      real = inside(path, what);
      isFile = Files.isRegularFile(real);
    }
    if (regular && !isFile) {
      throw new NotFoundException("no " + what, "is not a file");
    }
    return real;
  }

  /** What {@code path} is, not following a link at its end; "does not exist" when nothing is there. */
  private static BasicFileAttributes attributes(Path path, String what) {
    try {
      BasicFileAttributes attributes = lstat(path);
      if (attributes == null) {
        throw new NotFoundException("no " + what, "does not exist");
      }
      return attributes;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + ": " + e.getMessage(), e);
    }
  }

  /** Options passed as kept arrays and a kept set, not new ones (varargs) per call: a scan makes 500,000 calls. */
  private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};
  private static final java.util.Set<java.nio.file.OpenOption> READ = java.util.Set.of(
      java.nio.file.StandardOpenOption.READ);
  private static final java.nio.file.attribute.FileAttribute<?>[] NO_ATTRIBUTES = {};

  private static BasicFileAttributes lstat(Path path) throws IOException {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, NO_FOLLOW);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The real path of {@code path}, which must exist and lie inside the library's real path. */
  private Path inside(Path path, String what) {
    try {
      Path real = path.toRealPath();
      if (!real.startsWith(realRoot())) {
        // The reader is not told why: the layout outside stays private.
        throw new NotFoundException("no " + what, "resolves outside the library");
      }
      return real;
    } catch (NoSuchFileException e) {
      throw new NotFoundException("no " + what, "does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve " + what + ": " + e.getMessage(), e);
    }
  }

  private Path realRoot() throws IOException {
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

  private static String requireId(String id) {
    if (!validId(id)) {
      throw new IllegalArgumentException("not a library id: " + id);
    }
    return id;
  }

  private static BigDecimal numberOf(String number) {
    try {
      return new BigDecimal(number.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The content type of a page file by its extension. */
  public static String mediaType(String file) {
    String name = file.toLowerCase(Locale.ROOT);
    if (name.endsWith(".png")) {
      return "image/png";
    }
    if (name.endsWith(".webp")) {
      return "image/webp";
    }
    if (name.endsWith(".gif")) {
      return "image/gif";
    }
    if (name.endsWith(".avif")) {
      return "image/avif";
    }
    if (name.endsWith(".heic")) {
      return "image/heic";
    }
    return "image/jpeg";
  }
}
