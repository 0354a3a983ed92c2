package io.mangacircus.reader.library;

import java.time.Instant;
import java.util.Objects;

/**
 * One series in the library, as the inventory sees it on disk.
 *
 * @param id the series folder's name (a slug); a collection's series have ids of their own shape
 *     ({@code CollectionIds})
 * @param title the series title from its chapters' {@code chapter.json}, or a collection folder's name
 * @param source the source it came from ({@code collection} for a series found in a collection)
 * @param titleId the source's title id (a collection series: its path in the collection)
 * @param chapters published chapters (a collection series: its books)
 * @param updatedAt when its newest chapter was published (a collection series: its newest book's modification time)
 * @param library the name of the library that holds it: {@link #DOWNLOADS} or a configured collection's name
 */
public record SeriesEntry(String id, String title, String source, String titleId, int chapters, Instant updatedAt,
    String library) {

  /** The name of the library the scraper writes (the data folder's {@code library/}). */
  public static final String DOWNLOADS = "downloads";

  public SeriesEntry {
    Objects.requireNonNull(library, "library");
  }

  /** A series of the downloads library. */
  public SeriesEntry(String id, String title, String source, String titleId, int chapters, Instant updatedAt) {
    this(id, title, source, titleId, chapters, updatedAt, DOWNLOADS);
  }
}
