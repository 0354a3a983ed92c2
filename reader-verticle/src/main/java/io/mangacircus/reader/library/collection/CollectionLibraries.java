package io.mangacircus.reader.library.collection;

import io.mangacircus.reader.library.CollectionChapters;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryScan;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured collections together: the chapters of their series for {@link LibraryFiles}, and their scans joined
 * to the downloads library's into the one inventory every route lists. A collection whose folder cannot be listed (an
 * unmounted share) keeps its last series, with the reason among the skipped entries, so that a NAS that is down does
 * not look like a collection whose books were all removed; the downloads folder likewise. Blocking.
 */
public final class CollectionLibraries implements CollectionChapters {

  private static final Logger LOG = LoggerFactory.getLogger(CollectionLibraries.class);

  private final List<CollectionShelf> shelves = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** The downloads library's series of its last scan that found its folder. */
  private volatile List<SeriesEntry> lastDownloads = List.of();

  public CollectionLibraries(List<CollectionShelf> shelves) {
    this.shelves.addAll(shelves);
  }

  public List<CollectionShelf> shelves() {
    return List.copyOf(shelves);
  }

  /** Serves one more collection, from the next scan on (its kept scan at once). */
  public void add(CollectionShelf shelf) {
    shelves.add(shelf);
  }

  /** Stops serving a collection. */
  public void remove(String name) {
    shelves.removeIf(shelf -> shelf.name().equals(name));
  }

  /** The names of the collections. */
  public Set<String> names() {
    return Set.copyOf(shelves.stream().map(CollectionShelf::name).toList());
  }

  /**
   * Scans every collection and joins what they hold to the downloads library's scan: one list by title, the skipped
   * entries of all (a collection's named {@code <library>:<path>}).
   */
  public LibraryScan join(LibraryScan downloads, Consumer<SeriesEntry> found) {
    List<SeriesEntry> series = new ArrayList<>();
    List<LibraryScan.Skipped> skipped = new ArrayList<>(downloads.skipped());
    boolean downloadsMissing = downloads.folderMissing();
    if (downloadsMissing && !lastDownloads.isEmpty()) {
      series.addAll(lastDownloads);
      skipped.add(new LibraryScan.Skipped(SeriesEntry.DOWNLOADS, "the library folder is missing; its last series are "
          + "listed until it is back"));
    } else {
      series.addAll(downloads.series());
      lastDownloads = downloads.series();
    }
    for (CollectionShelf shelf : shelves) {
      List<SeriesEntry> held;
      try {
        CollectionScan scan = shelf.scan(found);
        held = scan.series().stream().map(shelf::entry).toList();
        scan.unreadable().forEach(item -> skipped.add(new LibraryScan.Skipped(shelf.name() + ":" + item.path(),
            item.reason())));
        LOG.debug("[LIBRARY] collection {}: {} series, {} archives opened, {} kept", shelf.name(),
            scan.series().size(), scan.archivesOpened(), scan.archivesReused());
      } catch (IOException | RuntimeException e) {
        held = shelf.entries();
        skipped.add(new LibraryScan.Skipped(shelf.name(), "the collection's folder " + shelf.root()
            + " cannot be listed (" + e.getMessage() + "); its last series are listed until it is back"));
      }
      series.addAll(held);
    }
    series.sort(LibraryInventory.ORDER);
    // The downloads folder missing on a fresh install is no error while collections are listed.
    return new LibraryScan(series, skipped, downloadsMissing && series.isEmpty(), downloads.chapters(),
        downloads.published());
  }

  /** Every collection's series of its last (or kept) scan, for a list before any scan of this process. */
  public List<SeriesEntry> entries() {
    List<SeriesEntry> all = new ArrayList<>();
    shelves.forEach(shelf -> all.addAll(shelf.entries()));
    return all;
  }

  private Optional<CollectionShelf> shelfOf(String seriesId) {
    for (CollectionShelf shelf : shelves) {
      if (shelf.series(seriesId).isPresent()) {
        return Optional.of(shelf);
      }
    }
    return Optional.empty();
  }

  @Override
  public List<BookComicInfo> comicInfo(String seriesId) {
    for (CollectionShelf shelf : shelves) {
      Optional<CollectionSeries> series = shelf.series(seriesId);
      if (series.isPresent()) {
        return CollectionShelf.comicInfo(series.get());
      }
    }
    return List.of();
  }

  @Override
  public boolean holds(String seriesId) {
    return shelfOf(seriesId).isPresent();
  }

  @Override
  public List<LibraryFiles.Chapter> chapters(String seriesId) {
    return shelfOf(seriesId).orElseThrow(() -> new LibraryFiles.NotFoundException("no series " + seriesId))
        .chapters(seriesId);
  }

  @Override
  public LibraryFiles.Chapter chapter(String seriesId, String chapterId) {
    return shelfOf(seriesId).orElseThrow(() -> new LibraryFiles.NotFoundException("no series " + seriesId))
        .chapter(seriesId, chapterId);
  }

  @Override
  public Optional<LibraryFiles.Chapter> cached(String seriesId, String chapterId) {
    return shelfOf(seriesId).flatMap(shelf -> shelf.cached(seriesId, chapterId));
  }
}
