package io.mangacircus.reader.library;

import static io.mangacircus.reader.library.LibraryPaths.CHAPTER;
import static io.mangacircus.reader.library.LibraryPaths.SERIES;
import static io.mangacircus.reader.library.LibraryPaths.what;

import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.contracts.library.LibraryLayout;
import io.mangacircus.contracts.library.PageImageType;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.archive.ArchivePart;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import io.mangacircus.reader.library.metadata.ComicInfoReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Read-only, traversal-proof access to published chapters, and the library's one rule of what is published: a series
 * or chapter is a real folder (not a symbolic link) with a plain name whose real path lies inside the library, and a
 * chapter has a valid {@code chapter.json} naming page files that exist inside the library. Page serving, series
 * pages, covers and the inventory scan all go through here, so they agree. Chapter manifests are cached because a
 * published chapter never changes in place (one published again replaces its cached manifest, {@link #admit}; a
 * whole-library scan, which a reader that missed a publication runs, reads cached ones again, {@link #listing}).
 * {@link LibraryPaths} decides where an entry really is and {@link ManifestReader} reads each {@code chapter.json}.
 * Blocking: call it off the event loop, except {@link #cached}.
 */
public final class LibraryFiles {

  private static final int CACHE_LIMIT = 4096;

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

  /**
   * One page of a published chapter, already resolved inside its library: a file of its own, or a part of an archive
   * in a collection.
   *
   * @param file the page's file, or the archive that holds it
   * @param sha256 the image's SHA-256 when known (the scraper records it), else empty
   * @param part where the page lies in {@code file} when that is an archive, else null
   */
  public record Page(int index, Path file, String sha256, String mediaType, ArchivePart part) {

    /** A page that is a file of its own. */
    public Page(int index, Path file, String sha256, String mediaType) {
      this(index, file, sha256, mediaType, null);
    }
  }

  /**
   * A published chapter as its {@code chapter.json} describes it; {@code sourceRating} is its {@code ageRating}, the
   * source's rating of the title when the chapter was published ({@link AgeRating#UNRATED} when it names none);
   * {@code language} the chapter's language as {@code chapter.json} names it ({@code en}, {@code pt-br}), null when
   * not known (a collection's book, a scan's outline, which skips it).
   */
  public record Chapter(String seriesId, String id, String seriesTitle, String source, String titleId, String number,
      String title, Instant publishedAt, List<Page> pages, AgeRating sourceRating, String language) {
    public Chapter {
      pages = List.copyOf(pages);
      sourceRating = sourceRating == null ? AgeRating.UNRATED : sourceRating;
      language = language == null || language.isBlank() ? null : language;
    }

    /** A chapter whose language is not known. */
    public Chapter(String seriesId, String id, String seriesTitle, String source, String titleId, String number,
        String title, Instant publishedAt, List<Page> pages, AgeRating sourceRating) {
      this(seriesId, id, seriesTitle, source, titleId, number, title, publishedAt, pages, sourceRating, null);
    }

    /** A chapter whose source does not rate its title. */
    public Chapter(String seriesId, String id, String seriesTitle, String source, String titleId, String number,
        String title, Instant publishedAt, List<Page> pages) {
      this(seriesId, id, seriesTitle, source, titleId, number, title, publishedAt, pages, AgeRating.UNRATED);
    }
  }

  private final Path root;
  private final LibraryPaths paths;
  private final ManifestReader reader;
  private final Map<String, Chapter> manifests = new ConcurrentHashMap<>();
  private volatile CollectionChapters collections = CollectionChapters.NONE;

  public LibraryFiles(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.paths = new LibraryPaths(this.root);
    this.reader = new ManifestReader(paths);
  }


  /** Serves the series of collections too, from now on. */
  public LibraryFiles withCollections(CollectionChapters collections) {
    this.collections = java.util.Objects.requireNonNull(collections, "collections");
    return this;
  }

  /** Whether {@code seriesId} names a series of a collection rather than a folder of the downloads library. */
  public boolean inCollection(String seriesId) {
    return collections.holds(seriesId);
  }

  /** Whether {@code id} can name a series or chapter folder: no separators, no dot segments, no leading dot. */
  public static boolean validId(String id) {
    // [A-Za-z0-9][A-Za-z0-9._-]{0,159} without "..", checked without a Matcher per call (a scan asks 300,000 times).
    return LibraryLayout.isPlainName(id, 160) && !id.contains("..");
  }

  /**
   * What the series' books' ComicInfo.xml say, first book first: a collection's as its last scan read them; for a
   * downloaded series, its first chapter's {@code ComicInfo.xml} read now (a plain file of at most 1 MiB), since a
   * scraper writes the same series-level values in every chapter. Empty when none can be used.
   *
   * @param first the series' first chapter, as {@link #chapters} lists it
   */
  public List<BookComicInfo> comicInfo(Chapter first) {
    if (collections.holds(first.seriesId())) {
      return collections.comicInfo(first.seriesId());
    }
    if (first.pages().isEmpty()) {
      return List.of();
    }
    Path file = first.pages().get(0).file().resolveSibling(ChapterArchives.COMIC_INFO);
    return ComicInfoReader.info(ComicInfoReader.fromFile(file)).stream().toList();
  }

  /** The chapter if its manifest was read before; never touches the disk. */
  public Optional<Chapter> cached(String seriesId, String chapterId) {
    if (collections.holds(seriesId)) {
      return collections.cached(seriesId, chapterId);
    }
    return Optional.ofNullable(manifests.get(seriesId + "/" + chapterId));
  }

  /** A downloaded series' folder (404 when the id cannot name one or it does not exist). */
  public Path seriesFolder(String seriesId) {
    return paths.seriesFolder(requireId(seriesId));
  }

  /** The library folder this reads. */
  public Path root() {
    return root;
  }

  /** Every published chapter of a series, by number; 404 when there is none. */
  public List<Chapter> chapters(String seriesId) {
    if (collections.holds(seriesId)) {
      return collections.chapters(seriesId);
    }
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
    if (collections.holds(seriesId)) {
      return new Listing(collections.chapters(seriesId), List.of());
    }
    Path series = paths.seriesFolder(requireId(seriesId));
    List<LibraryScan.Skipped> refused = new ArrayList<>();
    List<Numbered> numbered = new ArrayList<>();
    for (LibraryPaths.Entry entry : LibraryPaths.entries(series, SERIES, seriesId)) {
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

  /** Forgets the manifest read of a chapter: the next {@link #chapter} reads it again (it was replaced). */
  public void forget(String seriesId, String chapterId) {
    manifests.remove(seriesId + "/" + chapterId);
  }

  /** One published chapter. */
  public Chapter chapter(String seriesId, String chapterId) {
    if (collections.holds(seriesId)) {
      return collections.chapter(seriesId, chapterId);
    }
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
        Chapter read = read(seriesId, chapterId, series == null ? paths.seriesFolder(seriesId) : series);
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
    Chapter read = read(seriesId, chapterId, series == null ? paths.seriesFolder(seriesId) : series);
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
   * peak memory (docs/benchmarks.md, the library scan).
   */
  private Chapter scanned(String seriesId, LibraryPaths.Entry entry) {
    String chapterId = entry.name();
    String key = manifests.isEmpty() ? null : seriesId + "/" + chapterId;
    if (key != null && manifests.containsKey(key)) {
      return chapter(seriesId, chapterId, entry.path().getParent(), false);
    }
    Path folder = entry.plainFolder() ? entry.path() : paths.folder(entry.path().getParent(), chapterId, CHAPTER, seriesId);
    return admit(seriesId, chapterId, folder, manifest(seriesId, chapterId, folder, true), false);
  }

  private Chapter read(String seriesId, String chapterId, Path series) {
    Path folder = paths.folder(series, chapterId, CHAPTER, seriesId);
    return admit(seriesId, chapterId, folder, manifest(seriesId, chapterId, folder, false), true);
  }

  /** The manifest of a chapter folder; refused (NotFoundException) as "has no readable chapter.json". */
  private ChapterManifest manifest(String seriesId, String chapterId, Path folder, boolean outline) {
    try {
      return reader.read(folder, outline);
    } catch (LibraryPaths.Refused e) {
      throw new NotFoundException(unreadable(seriesId, chapterId), e.reason.equals("does not exist")
          ? "has no chapter.json" : "chapter.json " + e.reason);
    } catch (ChapterManifest.InvalidException e) {
      throw new NotFoundException(unreadable(seriesId, chapterId), e.getMessage());
    } catch (IOException e) {
      throw new NotFoundException(unreadable(seriesId, chapterId),
          "chapter.json cannot be read (" + e.getClass().getSimpleName() + ")");
    } catch (LibraryPaths.Unresolvable e) {
      throw e.unchecked("chapter.json of chapter " + seriesId + "/" + chapterId);
    }
  }

  private static String unreadable(String seriesId, String chapterId) {
    return "chapter " + seriesId + "/" + chapterId + " has no readable chapter.json";
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
    Chapter admitted = admit(seriesId, chapterId, paths.folder(paths.seriesFolder(seriesId), chapterId, CHAPTER, seriesId),
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
        resolved = paths.file(folder, file, true);
      } catch (LibraryPaths.Refused e) {
        throw new NotFoundException(what(CHAPTER, seriesId, chapterId) + " misses page " + file,
            "page " + file + " " + e.reason);
      } catch (LibraryPaths.Unresolvable e) {
        throw e.unchecked("page " + file);
      }
      if (pages != null) {
        pages.add(new Page(pages.size() + 1, resolved, page.sha256(), mediaType(file)));
      }
    }
    return new Chapter(seriesId, chapterId, manifest.series().isEmpty() ? seriesId : manifest.series(),
        manifest.source(), manifest.titleId(), manifest.number(), manifest.title(), manifest.publishedAt(),
        pages == null ? List.of() : pages, manifest.ageRating(), keepPages ? manifest.language() : null);
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

  /** The content type of a page file by its extension ({@link PageImageType}). */
  public static String mediaType(String file) {
    return PageImageType.mediaType(file);
  }
}