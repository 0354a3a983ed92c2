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
  /** Kept with its array: not a byte array wrapped anew for every read of every manifest. */
  private static final ThreadLocal<java.nio.ByteBuffer> READ_BUFFER =
      ThreadLocal.withInitial(() -> java.nio.ByteBuffer.allocate(8192));

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
   *     in place of what is cached, adding nothing; a chapter it lists that nobody cached carries no page list, its
   *     pages checked all the same)
   * @throws NotFoundException when the series folder itself is refused
   */
  public Listing listing(String seriesId, boolean remember) {
    Path series = seriesFolder(requireId(seriesId));
    List<LibraryScan.Skipped> refused = new ArrayList<>();
    List<Numbered> numbered = new ArrayList<>();
    for (Entry entry : entries(series, "series ", seriesId)) {
      String id = entry.name();
      if (!validId(id)) {
        refused.add(new LibraryScan.Skipped(seriesId + "/" + id, "not a plain folder name"));
        continue;
      }
      try {
        Chapter chapter = remember ? chapter(seriesId, id, series, true) : scanned(seriesId, entry);
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
  private static List<Entry> entries(Path folder, String what, String whose) {
    try (Stream<Path> children = Files.list(folder)) {
      // Each name taken once, not once per comparison.
      return children.map(LibraryFiles::entry).filter(java.util.Objects::nonNull)
          .sorted(Comparator.comparing(Entry::name)).toList();
    } catch (NoSuchFileException e) {
      throw new NotFoundException("no " + what + whose, "does not exist");
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

  /**
   * A chapter as a whole-library scan reads it: from the disk, judged by the rule like any other, and put in place of
   * what page serving cached. One nobody cached is read as an outline: its card's fields, every page checked but no
   * page list kept ({@link ChapterManifest#parseOutline}); what a scan allocates per chapter is most of the reader's
   * peak memory (docs/benchmarks.md, "Tenth session").
   */
  private Chapter scanned(String seriesId, Entry entry) {
    String chapterId = entry.name();
    String key = manifests.isEmpty() ? null : seriesId + "/" + chapterId;
    if (key != null && manifests.containsKey(key)) {
      return chapter(seriesId, chapterId, entry.path().getParent(), false);
    }
    Path folder = entry.plainFolder() ? entry.path() : folder(entry.path().getParent(), chapterId, CHAPTER, seriesId);
    return admit(seriesId, chapterId, folder, manifest(seriesId, chapterId, folder, true), false);
  }

  private Chapter read(String seriesId, String chapterId, Path series) {
    Path folder = folder(series, chapterId, CHAPTER, seriesId);
    return admit(seriesId, chapterId, folder, manifest(seriesId, chapterId, folder, false), true);
  }

  /** The manifest of a chapter folder; refused (NotFoundException) as "has no readable chapter.json". */
  private ChapterManifest manifest(String seriesId, String chapterId, Path folder, boolean outline) {
    try {
      return parseManifest(folder, outline);
    } catch (Refused e) {
      throw new NotFoundException(unreadable(seriesId, chapterId), e.reason.equals("does not exist")
          ? "has no chapter.json" : "chapter.json " + e.reason);
    } catch (ChapterManifest.InvalidException e) {
      throw new NotFoundException(unreadable(seriesId, chapterId), e.getMessage());
    } catch (IOException e) {
      throw new NotFoundException(unreadable(seriesId, chapterId),
          "chapter.json cannot be read (" + e.getClass().getSimpleName() + ")");
    } catch (Unresolvable e) {
      throw e.unchecked("chapter.json of chapter " + seriesId + "/" + chapterId);
    }
  }

  private static String unreadable(String seriesId, String chapterId) {
    return "chapter " + seriesId + "/" + chapterId + " has no readable chapter.json";
  }

  /**
   * Reads and parses the {@code chapter.json} of a real chapter folder through this thread's buffer (no array per file
   * for the usual sizes). A plain file is opened without a link being followed and without an {@code lstat} first;
   * a symbolic link (the open refuses it) is resolved and must land inside the library, as {@link #file} judges it.
   */
  private ChapterManifest parseManifest(Path folder, boolean outline)
      throws IOException, ChapterManifest.InvalidException, Refused, Unresolvable {
    java.nio.ByteBuffer buffer = READ_BUFFER.get().clear();
    try (java.nio.channels.FileChannel channel = open(folder)) {
      while (true) {
        if (!buffer.hasRemaining()) {
          buffer = java.nio.ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
        }
        if (channel.read(buffer) < 0) {
          break;
        }
      }
    }
    if (buffer.capacity() <= KEPT_BUFFER_BYTES) {
      READ_BUFFER.set(buffer);
    }
    byte[] bytes = buffer.array();
    int length = buffer.position();
    return outline ? ChapterManifest.parseOutline(bytes, length) : ChapterManifest.parse(bytes, length);
  }

  /** The {@code chapter.json} of a real chapter folder, opened as {@link #parseManifest} says. */
  private java.nio.channels.FileChannel open(Path folder) throws IOException, Refused, Unresolvable {
    Path file = folder.resolve(ChapterManifest.FILE);
    try {
      return java.nio.channels.FileChannel.open(file, READ_NO_FOLLOW, NO_ATTRIBUTES);
    } catch (NoSuchFileException e) {
      throw new Refused("does not exist");
    } catch (IOException e) {
      // A link (ELOOP) or anything odd: judged the long way, with an lstat and the link resolved.
      return java.nio.channels.FileChannel.open(file(folder, ChapterManifest.FILE, false), READ, NO_ATTRIBUTES);
    }
  }

  /**
   * A chapter whose manifest is already known (carried by a publication event), judged by the same rule as one read
   * from disk: its folders and every page file must be real and inside the library. Its {@code chapter.json} is not
   * read again. Blocking.
   *
   * @throws NotFoundException when the rule refuses it
   */
  public Chapter admit(String seriesId, String chapterId, ChapterManifest manifest) {
    requireId(seriesId);
    requireId(chapterId);
    Chapter admitted = admit(seriesId, chapterId, folder(seriesFolder(seriesId), chapterId, CHAPTER, seriesId),
        manifest, true);
    // A chapter published again (a new folder renamed over the old) replaces what page serving cached of the old one;
    // one nobody read yet is not added (the cache holds what readers open).
    manifests.computeIfPresent(seriesId + "/" + chapterId, (key, cached) -> admitted);
    return admitted;
  }

  /** @param keepPages whether the chapter lists its pages, or carries none (a scan's outline, {@link #scanned}) */
  private Chapter admit(String seriesId, String chapterId, Path folder, ChapterManifest manifest, boolean keepPages) {
    if (manifest.pages().isEmpty()) {
      throw new NotFoundException(what(CHAPTER, seriesId, chapterId) + " has no pages", "chapter.json lists no pages");
    }
    List<Page> pages = keepPages ? new ArrayList<>(manifest.pages().size()) : null;
    for (ChapterManifest.Page page : manifest.pages()) {
      String file = page.file();
      Path resolved;
      try {
        resolved = file(folder, file, true);
      } catch (Refused e) {
        throw new NotFoundException(what(CHAPTER, seriesId, chapterId) + " misses page " + file,
            "page " + file + " " + e.reason);
      } catch (Unresolvable e) {
        throw e.unchecked("page " + file);
      }
      if (pages != null) {
        pages.add(new Page(pages.size() + 1, resolved, page.sha256(), mediaType(file)));
      }
    }
    return new Chapter(seriesId, chapterId, manifest.series().isEmpty() ? seriesId : manifest.series(),
        manifest.source(), manifest.titleId(), manifest.number(), manifest.title(), manifest.publishedAt(),
        pages == null ? List.of() : pages);
  }

  private static final String SERIES = "series ";
  private static final String CHAPTER = "chapter ";

  /** What an entry is called in messages: {@code series circus} or {@code chapter circus/chapter-0001}. */
  private static String what(String kind, String seriesId, String name) {
    return seriesId == null ? kind + name : kind + seriesId + "/" + name;
  }

  /** The library's rule refused an entry: {@code reason} reads after its name ("does not exist"). */
  private static final class Refused extends Exception {
    private final String reason;

    Refused(String reason) {
      super(reason, null, false, false);
      this.reason = reason;
    }
  }

  /**
   * An entry could not be read or resolved. Worded only when it is reported: a scan checks 500,000 entries, and a
   * message made ahead for each (what the entry is called) was 35 MB of every scan's garbage.
   */
  private static final class Unresolvable extends Exception {
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
  private Path seriesFolder(String seriesId) {
    Path library;
    try {
      library = realRoot();
    } catch (NoSuchFileException e) {
      throw new NotFoundException("no series " + seriesId, "does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve the library folder: " + e.getMessage(), e);
    }
    return folder(library, seriesId, SERIES, null);
  }

  /** {@link #folder(Path, String)}, refused as "no " + the entry's name ({@link #what}). */
  private Path folder(Path parent, String name, String kind, String seriesId) {
    try {
      return folder(parent, name);
    } catch (Refused e) {
      throw new NotFoundException("no " + what(kind, seriesId, name), e.reason);
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
  private Path file(Path folder, String name, boolean regular) throws Refused, Unresolvable {
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
  private static final java.util.Set<java.nio.file.OpenOption> READ = java.util.Set.of(
      java.nio.file.StandardOpenOption.READ);
  private static final java.util.Set<java.nio.file.OpenOption> READ_NO_FOLLOW = java.util.Set.of(
      java.nio.file.StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
  private static final java.nio.file.attribute.FileAttribute<?>[] NO_ATTRIBUTES = {};
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
