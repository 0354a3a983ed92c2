package io.mangacircus.reader.library.collection;

import io.mangacircus.reader.library.archive.ArchiveIndex;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One book (chapter or volume) of a collection as a scan found it.
 *
 * @param id stable, path-safe id ({@link CollectionIds#book})
 * @param title the file or folder name, without a .cbz/.zip/.cbr/.rar extension
 * @param kind how the book holds its pages
 * @param path where it lies, relative to the collection's root, '/'-separated
 * @param size bytes of the archive; for a folder, the bytes of its images together
 * @param modified the archive's or the folder's last-modified time
 * @param pageCount pages in the book; {@link #UNCOUNTED} only in an index kept from before CBRs were listed
 * @param index a readable CBZ's page index; empty for other kinds
 * @param images a folder's image file names, or a CBR's page names in the archive, in natural order; empty for a CBZ
 * @param comicInfo what the book's ComicInfo.xml says (a CBZ's entry, a folder's file); empty when it has none, it
 *     could not be used, or the book is a CBR (whose files are listed, never read, at scan time)
 */
public record CollectionBook(String id, String title, BookKind kind, String path, long size, Instant modified,
    int pageCount, Optional<ArchiveIndex> index, List<String> images, Optional<BookComicInfo> comicInfo) {

  /** The page count of a book whose pages have not been listed yet. */
  public static final int UNCOUNTED = -1;

  public CollectionBook {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(modified, "modified");
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(comicInfo, "comicInfo");
    images = List.copyOf(images);
    if (pageCount < UNCOUNTED) {
      throw new IllegalArgumentException("page count " + pageCount + " of " + path);
    }
  }
}
