package io.mangacircus.scraper.source;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.contracts.rating.AgeRating;
import java.util.List;

/**
 * A title's metadata as a source describes it.
 *
 * @param id the source's title id
 * @param title the human title
 * @param chapters every chapter the source lists, in reading order, any language
 * @param languages the languages the source says the title has chapters in, when it says (else empty)
 * @param rating the source's age rating of the title (MangaDex's {@code contentRating}); {@link AgeRating#UNRATED}
 *     from a source that rates nothing (HTML sites, local files)
 * @param metadata what the source says about the series (summary, authors, genres, links...), kept in its series
 *     folder; null from a source that describes nothing
 */
public record TitleInfo(String id, String title, List<ChapterInfo> chapters, List<String> languages,
    AgeRating rating, SourceSeriesMetadata metadata) {

  public TitleInfo {
    chapters = List.copyOf(chapters);
    languages = List.copyOf(languages);
    rating = rating == null ? AgeRating.UNRATED : rating;
  }

  /** A title its source does not describe. */
  public TitleInfo(String id, String title, List<ChapterInfo> chapters, List<String> languages, AgeRating rating) {
    this(id, title, chapters, languages, rating, null);
  }

  /** A title its source does not rate. */
  public TitleInfo(String id, String title, List<ChapterInfo> chapters, List<String> languages) {
    this(id, title, chapters, languages, AgeRating.UNRATED);
  }

  /** A title whose source does not say which languages it has. */
  public TitleInfo(String id, String title, List<ChapterInfo> chapters) {
    this(id, title, chapters, List.of());
  }
}
