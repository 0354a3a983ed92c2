package io.mangacircus.reader.library.collection;

import java.util.List;
import java.util.Objects;

/**
 * One series of a collection: a top-level folder, or a loose archive at the top level as a one-book series.
 *
 * @param id stable, path-safe id ({@link CollectionIds#series})
 * @param title the folder's name (a loose archive's name without its extension)
 * @param path the folder or loose archive, relative to the collection's root
 * @param books its books in natural order of their names
 */
public record CollectionSeries(String id, String title, String path, List<CollectionBook> books) {

  public CollectionSeries {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(path, "path");
    books = List.copyOf(books);
  }
}
