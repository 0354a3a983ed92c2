package io.mangacircus.reader.library.collection;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.contracts.rating.SeriesRating;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.library.archive.ArchiveEntry;
import io.mangacircus.reader.library.archive.ArchiveIndex;
import io.mangacircus.reader.library.archive.ArchivePages;
import io.mangacircus.reader.library.archive.ArchivePart;
import io.mangacircus.reader.library.archive.OpenArchives;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One collection library: its last scan (kept under the data folder, {@link CollectionIndexFile}) and its series and
 * books served as chapters, each page a file of a folder book or a part of an archive that the page route sends from
 * the archive itself, or, for a CBR, a file of the book's page cache under the data folder ({@link RarPages}, unpacked
 * the first time the book is opened). A rescan replaces the whole view at once; until the first scan of a process
 * completes, the kept one is served. Nothing here writes inside the collection. Blocking.
 */
public final class CollectionShelf {

  /** What {@link SeriesEntry#source()} says of a series found in a collection. */
  public static final String SOURCE = "collection";

  /** Books opened for reading kept per view, with their pages located: at most this many. */
  private static final int OPENED_LIMIT = 1024;

  /**
   * A scan, its series by id and the books opened for reading since (by book id), replaced together: a rescan
   * drops what was opened from the scan before it.
   */
  private record View(CollectionScan scan, Map<String, CollectionSeries> byId,
      Map<String, LibraryFiles.Chapter> opened) {
    static View of(CollectionScan scan) {
      Map<String, CollectionSeries> byId = new HashMap<>();
      scan.series().forEach(s -> byId.put(s.id(), s));
      return new View(scan, byId, new ConcurrentHashMap<>());
    }
  }

  /**
   * The archives of every collection whose stored pages are being sent, open between sends: 64 at most (file
   * descriptors), each closed 30 s after its last send once another archive is opened, and all of them after any
   * collection's scan (an archive replaced or deleted since is not served from its old file for long).
   */
  public static final OpenArchives OPEN_ARCHIVES = new OpenArchives(64, TimeUnit.SECONDS.toNanos(30), System::nanoTime);

  private final String name;
  private final Path root;
  private final CollectionScanner scanner;
  private final CollectionIndexFile kept;
  private final RarSupport rar;
  private final Path rarFolder;
  // One unpacking of a book at a time: two readers opening it together share one cache folder.
  private final Map<String, Object> unpacking = new ConcurrentHashMap<>();
  private volatile View view = View.of(CollectionScan.none());
  private volatile boolean scanned;

  /**
   * @param name the library's name
   * @param root the collection's folder (absolute)
   * @param stateFolder where this collection's own files go, under the data folder
   */
  public CollectionShelf(String name, Path root, Path stateFolder, InstantSource clock, RarSupport rar) {
    this.name = Objects.requireNonNull(name, "name");
    this.root = root.toAbsolutePath().normalize();
    this.scanner = new CollectionScanner(this.root, clock, rar);
    this.kept = new CollectionIndexFile(stateFolder, this.root);
    this.rar = Objects.requireNonNull(rar, "rar");
    this.rarFolder = stateFolder.resolve("rar");
  }

  public String name() {
    return name;
  }

  public Path root() {
    return root;
  }

  /** Starts from the scan kept by an earlier process, if it can be used; call before the first {@link #scan}. */
  public CollectionShelf loadKept() {
    kept.load().ifPresent(scan -> view = View.of(scan));
    return this;
  }

  /** The last scan this shelf serves (the kept one before the first scan of this process). */
  public CollectionScan last() {
    return view.scan();
  }

  /** Whether a scan completed in this process. */
  public boolean scanned() {
    return scanned;
  }

  /**
   * Scans the collection again, reusing unchanged archives' indexes, keeps the result and serves it from now on.
   * While the first scan of a process runs with nothing kept before it, each series is served as soon as it is found.
   *
   * @param found told of each series found, as the inventory lists them
   * @throws IOException when the collection's folder cannot be listed (the last view stays)
   */
  public CollectionScan scan(Consumer<SeriesEntry> found) throws IOException {
    View before = view;
    boolean growing = before.scan().series().isEmpty() && !scanned;
    CollectionScan scan = scanner.scan(before.scan(), series -> {
      if (growing) {
        synchronized (this) {
          Map<String, CollectionSeries> byId = new HashMap<>(view.byId());
          byId.put(series.id(), series);
          view = new View(view.scan(), byId, view.opened());
        }
      }
      found.accept(entry(series));
    });
    view = View.of(scan);
    OPEN_ARCHIVES.forgetAll();
    scanned = true;
    kept.save(scan);
    return scan;
  }

  /** The series as the library inventory lists it. */
  public SeriesEntry entry(CollectionSeries series) {
    Instant newest = Instant.EPOCH;
    for (CollectionBook book : series.books()) {
      newest = book.modified().isAfter(newest) ? book.modified() : newest;
    }
    // The admin's rating goes above this where access is decided; a collection has no source to rate it.
    AgeRating rating = SeriesRating.decide(null, null, comicInfo(series).stream().map(BookComicInfo::ageRating)
        .toList()).rating();
    return new SeriesEntry(series.id(), series.title(), SOURCE, series.path(), series.books().size(), newest, name,
        rating);
  }

  /** The ComicInfo.xml of the series' books that have one, first book first. */
  public static List<BookComicInfo> comicInfo(CollectionSeries series) {
    return series.books().stream().flatMap(book -> book.comicInfo().stream()).toList();
  }

  /** Every series as the library inventory lists them. */
  public List<SeriesEntry> entries() {
    return view.scan().series().stream().map(this::entry).toList();
  }

  public Optional<CollectionSeries> series(String id) {
    return Optional.ofNullable(view.byId().get(id));
  }

  /** The series' books as chapters, numbered by their place in natural order; NotFoundException when none. */
  public List<LibraryFiles.Chapter> chapters(String seriesId) {
    CollectionSeries series = series(seriesId)
        .orElseThrow(() -> new LibraryFiles.NotFoundException("no series " + seriesId + " in " + name));
    List<LibraryFiles.Chapter> chapters = new ArrayList<>(series.books().size());
    for (int i = 0; i < series.books().size(); i++) {
      CollectionBook book = series.books().get(i);
      // A listing names a CBR's cached page files without unpacking it; reading the book unpacks it.
      chapters.add(book.kind() == BookKind.CBR && book.pageCount() > 0 ? cachedRar(series, book, i + 1)
          : chapter(series, book, i + 1));
    }
    return chapters;
  }

  /**
   * One book as a chapter opened for reading: an archive's pages located (one read of each local header, once per
   * book and scan, so that a page is then sent without reading it again), a CBR's pages unpacked into its cache first
   * if they are not there yet. NotFoundException when there is no such book, or when it is a CBR whose pages cannot
   * be unpacked (it is listed as unreadable from then on, with the reason).
   */
  public LibraryFiles.Chapter chapter(String seriesId, String bookId) {
    View now = view;
    LibraryFiles.Chapter known = now.opened().get(bookId);
    if (known != null && known.seriesId().equals(seriesId)) {
      return known;
    }
    CollectionSeries series = now.byId().get(seriesId);
    if (series == null) {
      throw new LibraryFiles.NotFoundException("no series " + seriesId + " in " + name);
    }
    for (int i = 0; i < series.books().size(); i++) {
      if (series.books().get(i).id().equals(bookId)) {
        LibraryFiles.Chapter opened = located(chapter(series, series.books().get(i), i + 1));
        if (now.opened().size() >= OPENED_LIMIT) {
          now.opened().clear();
        }
        now.opened().put(bookId, opened);
        return opened;
      }
    }
    throw new LibraryFiles.NotFoundException("no book " + bookId + " in series " + seriesId);
  }

  /** The book if it was opened for reading since the last scan; never touches the disk. */
  public Optional<LibraryFiles.Chapter> cached(String seriesId, String bookId) {
    // Book ids are unique in a collection (a hash of the path); the series must be the book's own all the same, or a
    // book of a series the request may not see would be served under one it may.
    LibraryFiles.Chapter known = view.opened().get(bookId);
    return known != null && known.seriesId().equals(seriesId) ? Optional.of(known) : Optional.empty();
  }

  /**
   * The chapter with its archive pages' data located; as it was when the archive cannot be read now (a send then
   * fails on its own, as for a page file that went away).
   */
  private static LibraryFiles.Chapter located(LibraryFiles.Chapter chapter) {
    if (chapter.pages().isEmpty() || chapter.pages().get(0).part() == null) {
      return chapter;
    }
    List<LibraryFiles.Page> pages = new ArrayList<>(chapter.pages().size());
    try (FileChannel archive = FileChannel.open(chapter.pages().get(0).file(), StandardOpenOption.READ,
        LinkOption.NOFOLLOW_LINKS)) {
      for (LibraryFiles.Page page : chapter.pages()) {
        pages.add(new LibraryFiles.Page(page.index(), page.file(), page.sha256(), page.mediaType(),
            page.part().located(ArchivePages.locate(archive, page.part()))));
      }
    } catch (IOException e) {
      return chapter;
    }
    return new LibraryFiles.Chapter(chapter.seriesId(), chapter.id(), chapter.seriesTitle(), chapter.source(),
        chapter.titleId(), chapter.number(), chapter.title(), chapter.publishedAt(), pages);
  }

  /** The file of a book (an archive or a folder), resolved in the collection. */
  public Path file(CollectionBook book) {
    return resolve(book.path());
  }

  private LibraryFiles.Chapter chapter(CollectionSeries series, CollectionBook book, int number) {
    List<LibraryFiles.Page> pages = new ArrayList<>();
    Path file = resolve(book.path());
    if (book.kind() == BookKind.CBR) {
      return unpackedRar(series, book, number);
    }
    if (book.index().isPresent()) {
      ArchiveIndex index = book.index().get();
      for (ArchiveEntry entry : index.pages()) {
        pages.add(new LibraryFiles.Page(pages.size() + 1, file, "", entry.mediaType(), ArchivePart.of(index, entry)));
      }
    } else {
      for (String image : book.images()) {
        pages.add(new LibraryFiles.Page(pages.size() + 1, file.resolve(image), "", LibraryFiles.mediaType(image)));
      }
    }
    return asChapter(series, book, number, pages);
  }

  private LibraryFiles.Chapter asChapter(CollectionSeries series, CollectionBook book, int number,
      List<LibraryFiles.Page> pages) {
    return new LibraryFiles.Chapter(series.id(), book.id(), series.title(), SOURCE, series.path(),
        Integer.toString(number), book.title(), book.modified(), pages);
  }

  /** A CBR's pages where its cache keeps them, as the scan listed them, unpacked or not. */
  private LibraryFiles.Chapter cachedRar(CollectionSeries series, CollectionBook book, int number) {
    Path cache = RarPages.cacheFolder(rarFolder, book.id(), book.size(), book.modified());
    return rarChapter(series, book, number, book.images(), RarPages.files(cache, book.images()));
  }

  private LibraryFiles.Chapter unpackedRar(CollectionSeries series, CollectionBook book, int number) {
    if (!rar.available()) {
      throw new LibraryFiles.NotFoundException(RarSupport.MISSING);
    }
    RarPages.Result result;
    synchronized (unpacking.computeIfAbsent(book.id(), id -> new Object())) {
      try {
        result = rar.pages().unpack(resolve(book.path()), book.size(), book.modified(), rarFolder, book.id());
      } catch (IOException e) {
        throw new UncheckedIOException("the page cache of " + name + ":" + book.path() + " cannot be written", e);
      }
    }
    if (result instanceof RarPages.Refused refused) {
      unreadable(book, refused.reason());
      throw new LibraryFiles.NotFoundException(name + ":" + book.path() + ": " + refused.reason());
    }
    RarPages.Pages pages = (RarPages.Pages) result;
    return rarChapter(series, book, number, pages.names(), pages.files());
  }

  private LibraryFiles.Chapter rarChapter(CollectionSeries series, CollectionBook book, int number,
      List<String> names, List<Path> files) {
    List<LibraryFiles.Page> pages = new ArrayList<>(files.size());
    for (int i = 0; i < files.size(); i++) {
      pages.add(new LibraryFiles.Page(i + 1, files.get(i), "", LibraryFiles.mediaType(names.get(i))));
    }
    return asChapter(series, book, number, pages);
  }

  /**
   * Lists a book whose pages could not be unpacked as unreadable from now on, and keeps that, so the next scan reuses
   * the refusal while the archive is unchanged instead of offering the book again.
   */
  private synchronized void unreadable(CollectionBook book, String reason) {
    CollectionScan scan = view.scan();
    List<CollectionSeries> series = new ArrayList<>();
    for (CollectionSeries s : scan.series()) {
      List<CollectionBook> books = s.books().stream().filter(b -> !b.id().equals(book.id())).toList();
      if (!books.isEmpty()) {
        series.add(books.size() == s.books().size() ? s : new CollectionSeries(s.id(), s.title(), s.path(), books));
      }
    }
    List<UnreadableItem> unreadable = new ArrayList<>(scan.unreadable());
    unreadable.add(new UnreadableItem(book.path(), UnreadableItem.Cause.BROKEN_ARCHIVE, reason, book.size(),
        book.modified()));
    unreadable.sort(Comparator.comparing(UnreadableItem::path));
    CollectionScan changed = new CollectionScan(scan.finishedAt(), series, unreadable, scan.archivesOpened(),
        scan.archivesReused());
    view = View.of(changed);
    OPEN_ARCHIVES.forgetAll();
    kept.save(changed);
  }

  // Paths come from this collection's own scan, '/'-separated and relative: never absolute, never "..".
  private Path resolve(String relative) {
    Path resolved = root;
    for (String segment : relative.split("/")) {
      resolved = resolved.resolve(segment);
    }
    return resolved;
  }
}
