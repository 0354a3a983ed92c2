package io.mangacircus.contracts.rating;

import java.util.Collection;

/**
 * A series' effective age rating and where it came from: the admin's rating if set, else the source's (MangaDex's
 * {@code contentRating}), else the strictest ComicInfo rating among its chapters, else unrated.
 *
 * @param rating the effective rating ({@link AgeRating#UNRATED} when nothing rates the series)
 * @param origin what decided it
 */
public record SeriesRating(AgeRating rating, Origin origin) {

  /** Where an effective rating came from, in precedence order. */
  public enum Origin {
    /** Set by hand by an admin and kept in the catalog: someone looked at this series. */
    ADMIN,
    /** The source's rating of the whole series, made by people who rate series. */
    SOURCE,
    /** The strictest rating in its chapters' ComicInfo.xml. */
    COMIC_INFO,
    /** Nothing rates the series. */
    NONE
  }

  public SeriesRating {
    if (rating == null || origin == null || (origin == Origin.NONE) == rating.rated()) {
      throw new IllegalArgumentException("a series rating is unrated exactly when nothing decided it, not "
          + rating + " from " + origin);
    }
  }

  /**
   * Decides a series' rating. A null or {@link AgeRating#UNRATED} input says nothing and falls through to the next.
   * Chapters that disagree give the strictest of their ratings: a limit shows or hides a series as a whole, so one
   * 18+ volume makes the series 18+, or a reader limited below it would reach that volume through the series. Chapters
   * without a rating are skipped when others carry one, since tools often write {@code AgeRating} on some volumes only.
   *
   * @param admin the admin's rating from the catalog, or null
   * @param source the source's rating (for MangaDex, {@link AgeRating#fromMangaDex}), or null
   * @param chapters the ComicInfo ratings of the series' chapters (any order; null or empty when none has one)
   */
  public static SeriesRating decide(AgeRating admin, AgeRating source, Collection<AgeRating> chapters) {
    if (admin != null && admin.rated()) {
      return new SeriesRating(admin, Origin.ADMIN);
    }
    if (source != null && source.rated()) {
      return new SeriesRating(source, Origin.SOURCE);
    }
    AgeRating strictest = AgeRating.UNRATED;
    if (chapters != null) {
      for (AgeRating chapter : chapters) {
        if (chapter != null) {
          strictest = AgeRating.stricter(strictest, chapter);
        }
      }
    }
    return strictest.rated() ? new SeriesRating(strictest, Origin.COMIC_INFO) : new SeriesRating(AgeRating.UNRATED,
        Origin.NONE);
  }
}
