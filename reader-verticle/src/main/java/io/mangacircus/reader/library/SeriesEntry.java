package io.mangacircus.reader.library;

import io.mangacircus.contracts.rating.AgeRating;
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
 * @param rating its age rating as its files say ({@code SeriesRating.decide} without the admin's: the source's, else
 *     the strictest of its chapters' ComicInfo); {@link AgeRating#UNRATED} when nothing rates it. The admin's rating,
 *     kept in the catalog, is applied above this where access is decided.
 */
public record SeriesEntry(String id, String title, String source, String titleId, int chapters, Instant updatedAt,
    String library, AgeRating rating) {

  /** The name of the library the scraper writes (the data folder's {@code library/}). */
  public static final String DOWNLOADS = "downloads";

  public SeriesEntry {
    Objects.requireNonNull(library, "library");
    rating = rating == null ? AgeRating.UNRATED : rating;
  }

  /** A series of the downloads library that nothing rates. */
  public SeriesEntry(String id, String title, String source, String titleId, int chapters, Instant updatedAt) {
    this(id, title, source, titleId, chapters, updatedAt, DOWNLOADS, AgeRating.UNRATED);
  }

  /** The same series with another rating. */
  public SeriesEntry rated(AgeRating newRating) {
    return new SeriesEntry(id, title, source, titleId, chapters, updatedAt, library, newRating);
  }
}
