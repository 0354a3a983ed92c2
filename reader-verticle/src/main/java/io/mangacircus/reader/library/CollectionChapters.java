package io.mangacircus.reader.library;

import io.mangacircus.reader.library.metadata.BookComicInfo;
import java.util.List;
import java.util.Optional;

/**
 * The series that collections hold, as {@link LibraryFiles} serves them next to the downloads library's: a series id
 * a collection holds is answered here, any other one from the downloads folder. Blocking.
 */
public interface CollectionChapters {

  /** No collection configured. */
  CollectionChapters NONE = new CollectionChapters() {
    @Override
    public boolean holds(String seriesId) {
      return false;
    }

    @Override
    public List<LibraryFiles.Chapter> chapters(String seriesId) {
      throw new LibraryFiles.NotFoundException("no series " + seriesId);
    }

    @Override
    public LibraryFiles.Chapter chapter(String seriesId, String chapterId) {
      throw new LibraryFiles.NotFoundException("no series " + seriesId);
    }

    @Override
    public Optional<LibraryFiles.Chapter> cached(String seriesId, String chapterId) {
      return Optional.empty();
    }
  };

  /**
   * The ComicInfo.xml of the series' books that have one, as the last scan read them, first book first; empty for a
   * series no collection holds.
   */
  default List<BookComicInfo> comicInfo(String seriesId) {
    return List.of();
  }

  /** Whether {@code seriesId} names a series of a collection, as the last scans found them. */
  boolean holds(String seriesId);

  /** The series' books as chapters, in order, their pages not yet located; NotFoundException when it has none. */
  List<LibraryFiles.Chapter> chapters(String seriesId);

  /** One book as a chapter with its pages located; NotFoundException when there is no such book. */
  LibraryFiles.Chapter chapter(String seriesId, String chapterId);

  /** The book as a chapter if it was opened before; never touches the disk. */
  Optional<LibraryFiles.Chapter> cached(String seriesId, String chapterId);
}
