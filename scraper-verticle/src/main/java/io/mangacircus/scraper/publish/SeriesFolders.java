package io.mangacircus.scraper.publish;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The library's series folders as one pass over many chapters sees them (startup recovery, before any lane runs):
 * each title's series folder is resolved once ({@link LibraryFolders#series}: markers read once, not once a chapter)
 * and listed once, so a chapter that is not in the listing is known absent without touching the disk. A snapshot:
 * what changes in the library after a folder was first asked about is not seen. Safe to share between threads.
 */
public final class SeriesFolders {

  /**
   * A title's series folder and the names in it when first asked about (empty when it did not exist; null when it
   * could not be listed: then every chapter is looked at on the disk, as without the snapshot).
   */
  private record Listed(Path folder, Set<String> names) {
  }

  private final LibraryFolders layout;
  private final ConcurrentHashMap<List<String>, Listed> titles = new ConcurrentHashMap<>();

  public SeriesFolders(LibraryFolders layout) {
    this.layout = layout;
  }

  /** Where a chapter's folder is and whether it was in its series folder's listing (or that was unlistable). */
  public record Place(Path folder, boolean listed) {
  }

  /** The chapter's place: its folder the same as {@link LibraryFolders#chapter}, from the snapshot. */
  public Place place(ChapterKey key) {
    Listed series = snapshot(key);
    String slug = io.mangacircus.contracts.library.LibraryLayout.chapterSlug(key.number(), key.chapterId());
    return new Place(series.folder().resolve(slug), series.names() == null || series.names().contains(slug));
  }

  /** The published folder of a chapter: the same answer as {@link LibraryFolders#chapter}, from the snapshot. */
  public Path chapter(ChapterKey key) {
    return place(key).folder();
  }

  /** Whether the chapter's folder may be there: in its series folder's listing, or that folder was unlistable. */
  public boolean listed(ChapterKey key) {
    return place(key).listed();
  }

  /** How many series folders were resolved so far (one per title asked about). */
  public int titles() {
    return titles.size();
  }

  private Listed snapshot(ChapterKey key) {
    return titles.computeIfAbsent(List.of(key.source(), key.titleId(), key.seriesTitle()), title -> {
      Path folder = layout.series(key.source(), key.titleId(), key.seriesTitle());
      try (Stream<Path> entries = Files.list(folder)) {
        return new Listed(folder, entries.map(entry -> entry.getFileName().toString())
            .collect(Collectors.toUnmodifiableSet()));
      } catch (NoSuchFileException | NotDirectoryException e) {
        return new Listed(folder, Set.of());
      } catch (IOException | UncheckedIOException e) {
        return new Listed(folder, null);
      }
    });
  }
}
