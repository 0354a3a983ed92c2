package io.mangacircus.reader.library.collection;

import io.mangacircus.reader.library.archive.ArchiveEntry;
import io.mangacircus.reader.library.archive.ArchiveIndex;
import io.mangacircus.reader.library.archive.ArchiveIndex.Readable;
import io.mangacircus.reader.library.archive.ArchiveIndex.Refusal;
import io.mangacircus.reader.library.archive.ArchiveIndex.Unreadable;
import io.mangacircus.reader.library.archive.NaturalOrder;
import io.mangacircus.reader.library.collection.UnreadableItem.Cause;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import io.mangacircus.reader.library.metadata.ComicInfoReader;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scans a read-only collection folder in place: top-level folders are series, each holding books (CBZ/ZIP files,
 * CBR/RAR files, folders of images); a loose archive at the top level is a one-book series. It only lists folders and
 * reads archives' central directories: nothing in the collection is written, moved or deleted, and no symbolic link is
 * followed (each entry is examined with {@code NOFOLLOW_LINKS} before anything descends into it or opens it), so a
 * link cannot lead the scan outside the collection. A CBZ or CBR whose path, size and mtime match the previous scan
 * keeps its previous result, its ComicInfo.xml included, without being opened again; a new or changed CBZ has its
 * ComicInfo.xml read with its central directory, a new or changed CBR is listed with bsdtar ({@link RarPages}).
 * Blocking; call it off the event loop.
 */
public final class CollectionScanner {

  private static final Logger LOG = LoggerFactory.getLogger(CollectionScanner.class);

  static final String SYMLINK_REASON = "symbolic link: not followed (it could lead outside the library)";

  private final Path root;
  private final InstantSource clock;
  private final RarSupport rar;

  public CollectionScanner(Path root, InstantSource clock, RarSupport rar) {
    this.root = Objects.requireNonNull(root, "root");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.rar = Objects.requireNonNull(rar, "rar");
  }

  /**
   * Scans the collection, reusing {@code previous} ({@link CollectionScan#none()} for a first scan) for archives that
   * did not change. Fails with an {@link IOException} only when the root itself cannot be listed (an unmounted share
   * must not look like a collection whose books were all removed); anything below it that cannot be read is listed
   * as unreadable.
   */
  public CollectionScan scan(CollectionScan previous) throws IOException {
    return scan(previous, series -> { });
  }

  /** As {@link #scan(CollectionScan)}, telling {@code found} of each series as soon as it is complete. */
  public CollectionScan scan(CollectionScan previous, Consumer<CollectionSeries> found) throws IOException {
    Walk walk = new Walk(previous, found);
    for (Entry entry : list(root)) {
      if (entry.attributes.isSymbolicLink()) {
        walk.unreadable(entry, Cause.SYMBOLIC_LINK, SYMLINK_REASON);
      } else if (entry.attributes.isDirectory()) {
        walk.seriesFolder(entry);
      } else if (entry.attributes.isRegularFile() && kindOf(entry.name) != null) {
        String title = withoutExtension(entry.name);
        walk.archive(entry).ifPresent(book -> walk.add(
            new CollectionSeries(CollectionIds.series(entry.path, title), title, entry.path, List.of(book))));
      }
    }
    walk.series.sort(Comparator.comparing(CollectionSeries::title, NaturalOrder.INSTANCE)
        .thenComparing(CollectionSeries::path));
    walk.unreadable.sort(Comparator.comparing(UnreadableItem::path));
    return new CollectionScan(clock.instant(), walk.series, walk.unreadable, walk.opened, walk.reused);
  }

  /** One scan's findings as they accumulate, and the previous scan's archives by path. */
  private final class Walk {
    private final Map<String, CollectionBook> previousBooks = new HashMap<>();
    private final Map<String, UnreadableItem> previousBroken = new HashMap<>();
    private final List<CollectionSeries> series = new ArrayList<>();
    private final List<UnreadableItem> unreadable = new ArrayList<>();
    private final Consumer<CollectionSeries> found;
    private int opened;
    private int reused;

    Walk(CollectionScan previous, Consumer<CollectionSeries> found) {
      this.found = found;
      for (CollectionBook book : previous.books()) {
        // A CBR kept from before its pages were listed at scan time is listed again.
        if (book.kind() == BookKind.CBZ || book.kind() == BookKind.CBR && book.pageCount() > 0) {
          previousBooks.put(book.path(), book);
        }
      }
      for (UnreadableItem item : previous.unreadable()) {
        if (item.cause() == Cause.BROKEN_ARCHIVE) {
          previousBroken.put(item.path(), item);
        }
      }
    }

    void seriesFolder(Entry folder) {
      List<Entry> children;
      try {
        children = list(folder.file);
      } catch (IOException e) {
        unreadable(folder, Cause.IO_ERROR, "folder cannot be listed: " + e.getMessage());
        return;
      }
      List<CollectionBook> books = new ArrayList<>();
      // Images right inside a series folder make one book of the folder itself (a one-shot kept as a bare folder).
      folderBook(folder, children, folder.name, false).ifPresent(books::add);
      for (Entry child : children) {
        if (child.attributes.isSymbolicLink()) {
          unreadable(child, Cause.SYMBOLIC_LINK, SYMLINK_REASON);
        } else if (child.attributes.isDirectory()) {
          folderBook(child).ifPresent(books::add);
        } else if (child.attributes.isRegularFile() && kindOf(child.name) != null) {
          archive(child).ifPresent(books::add);
        }
      }
      if (!books.isEmpty()) {
        add(new CollectionSeries(CollectionIds.series(folder.path, folder.name), folder.name, folder.path, books));
      }
    }

    void add(CollectionSeries complete) {
      series.add(complete);
      found.accept(complete);
    }

    Optional<CollectionBook> folderBook(Entry folder) {
      try {
        return folderBook(folder, list(folder.file), folder.name, true);
      } catch (IOException e) {
        unreadable(folder, Cause.IO_ERROR, "folder cannot be listed: " + e.getMessage());
        return Optional.empty();
      }
    }

    /**
     * The folder as a book of its images, empty when it holds none; links in it are never pages, and are listed as
     * unreadable when {@code reportLinks} (a series folder's own loop lists its links already).
     */
    Optional<CollectionBook> folderBook(Entry folder, List<Entry> children, String title, boolean reportLinks) {
      List<String> images = new ArrayList<>();
      long size = 0;
      Entry comicInfo = null;
      for (Entry child : children) {
        if (child.attributes.isSymbolicLink()) {
          if (reportLinks) {
            unreadable(child, Cause.SYMBOLIC_LINK, SYMLINK_REASON);
          }
        } else if (child.attributes.isRegularFile() && ArchiveEntry.isImageName(child.name)) {
          images.add(child.name);
          size += child.attributes.size();
        } else if (comicInfo == null && child.attributes.isRegularFile()
            && ComicInfoReader.isComicInfoName(child.name)) {
          comicInfo = child;
        }
      }
      if (images.isEmpty()) {
        return Optional.empty();
      }
      // A folder is listed again on every scan (only archives are reused), so its ComicInfo.xml is read again too.
      Optional<BookComicInfo> info = comicInfo == null ? Optional.empty() : comicInfo(comicInfo,
          ComicInfoReader.fromFile(comicInfo.file));
      return Optional.of(new CollectionBook(CollectionIds.book(folder.path, title), title, BookKind.FOLDER,
          folder.path, size, folder.modified(), images.size(), Optional.empty(), images, info));
    }

    /** The archive as a book, or nothing when it is listed as unreadable. */
    Optional<CollectionBook> archive(Entry file) {
      BookKind kind = kindOf(file.name);
      String title = withoutExtension(file.name);
      String id = CollectionIds.book(file.path, title);
      if (kind == BookKind.CBR && !rar.available()) {
        unreadable(file, Cause.RAR_UNSUPPORTED, RarSupport.MISSING);
        return Optional.empty();
      }
      CollectionBook known = previousBooks.get(file.path);
      if (known != null && unchanged(file, known.size(), known.modified())) {
        reused++;
        return Optional.of(known);
      }
      UnreadableItem broken = previousBroken.get(file.path);
      if (broken != null && unchanged(file, broken.size(), broken.modified())) {
        reused++;
        unreadable.add(broken);
        return Optional.empty();
      }
      opened++;
      if (kind == BookKind.CBR) {
        return rarBook(file, id, title);
      }
      ArchiveIndex.Result result = ArchiveIndex.read(file.file);
      if (result instanceof Unreadable refused) {
        Cause cause = refused.refusal() == Refusal.IO_ERROR ? Cause.IO_ERROR : Cause.BROKEN_ARCHIVE;
        unreadable(file, cause, refused.reason());
        return Optional.empty();
      }
      ArchiveIndex index = ((Readable) result).index();
      if (index.pages().isEmpty()) {
        unreadable(file, Cause.BROKEN_ARCHIVE, "no page images in the archive");
        return Optional.empty();
      }
      // A second, short read of the archive's directory: the page index keeps pages only.
      Optional<BookComicInfo> info = comicInfo(file, ComicInfoReader.fromArchive(file.file));
      return Optional.of(new CollectionBook(id, title, kind, file.path, file.attributes.size(), file.modified(),
          index.pages().size(), Optional.of(index), List.of(), info));
    }

    /** The book's ComicInfo when it could be read; a refusal gives no metadata and never fails the scan. */
    Optional<BookComicInfo> comicInfo(Entry where, ComicInfoReader.Result result) {
      if (result instanceof ComicInfoReader.Unusable unusable) {
        LOG.debug("[LIBRARY] {}: ComicInfo.xml not used: {}", where.path, unusable.reason());
      }
      return ComicInfoReader.info(result);
    }

    /**
     * A CBR listed with {@code bsdtar -tf} for its page count and names; its pages are unpacked only when it is first
     * read ({@link CollectionShelf#chapter}), so a scan costs one listing per new or changed CBR and stays as fast as
     * reading central directories.
     */
    Optional<CollectionBook> rarBook(Entry file, String id, String title) {
      RarPages.Result listed = rar.pages().list(file.file);
      if (listed instanceof RarPages.Refused refused) {
        unreadable(file, Cause.BROKEN_ARCHIVE, refused.reason());
        return Optional.empty();
      }
      List<String> names = ((RarPages.Pages) listed).names();
      return Optional.of(new CollectionBook(id, title, BookKind.CBR, file.path, file.attributes.size(),
          file.modified(), names.size(), Optional.empty(), names, Optional.empty()));
    }

    void unreadable(Entry entry, Cause cause, String reason) {
      unreadable.add(new UnreadableItem(entry.path, cause, reason, entry.attributes.size(), entry.modified()));
    }
  }

  private static boolean unchanged(Entry file, long size, Instant modified) {
    return file.attributes.size() == size && file.modified().equals(modified);
  }

  /**
   * The folder's entries in natural order of their names, each with its own attributes (a link's, not its
   * target's); hidden names and NAS housekeeping folders left out, entries gone since the listing skipped.
   */
  private List<Entry> list(Path folder) throws IOException {
    List<Entry> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder)) {
      for (Path child : stream) {
        String name = child.getFileName().toString();
        if (ignored(name)) {
          continue;
        }
        try {
          BasicFileAttributes attributes = Files.readAttributes(child, BasicFileAttributes.class,
              LinkOption.NOFOLLOW_LINKS);
          entries.add(new Entry(child, relative(child), name, attributes));
        } catch (NoSuchFileException e) {
          // Removed while the folder was listed: the next scan will not see it either.
        }
      }
    }
    entries.sort(Comparator.comparing((Entry e) -> e.name, NaturalOrder.INSTANCE));
    return entries;
  }

  // Dot-files (.DS_Store, ._x), Synology's @eaDir and the recycle bins NAS shares keep are never books.
  private static boolean ignored(String name) {
    return name.startsWith(".") || name.equals("@eaDir") || name.equals("#recycle") || name.equals("#snapshot");
  }

  private String relative(Path child) {
    StringBuilder path = new StringBuilder();
    for (Path segment : root.relativize(child)) {
      if (!path.isEmpty()) {
        path.append('/');
      }
      path.append(segment);
    }
    return path.toString();
  }

  static BookKind kindOf(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".cbz") || lower.endsWith(".zip")) {
      return BookKind.CBZ;
    }
    if (lower.endsWith(".cbr") || lower.endsWith(".rar")) {
      return BookKind.CBR;
    }
    return null;
  }

  private static String withoutExtension(String name) {
    return kindOf(name) == null ? name : name.substring(0, name.length() - 4);
  }

  /** One folder entry: where it is, its path relative to the root, its name and its own attributes. */
  private record Entry(Path file, String path, String name, BasicFileAttributes attributes) {
    Instant modified() {
      return attributes.lastModifiedTime().toInstant();
    }
  }
}
