package io.mangacircus.scraper.publish;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;

/**
 * Identifies one chapter of one title for staging and publication.
 *
 * @param source source name
 * @param titleId the source's title id
 * @param seriesTitle the human title (names the series folder)
 * @param chapterId the source's chapter id
 * @param number chapter number as written
 * @param chapterTitle chapter title, may be empty
 * @param language language code
 * @param rating the source's age rating of the title, written into {@code chapter.json} and {@code ComicInfo.xml} at
 *     publication; {@link AgeRating#UNRATED} when the source gives none. Not part of the chapter's identity.
 */
public record ChapterKey(String source, String titleId, String seriesTitle, String chapterId, String number,
    String chapterTitle, String language, AgeRating rating) {

  public ChapterKey {
    rating = rating == null ? AgeRating.UNRATED : rating;
  }

  /** A key of a chapter its source does not rate. */
  public ChapterKey(String source, String titleId, String seriesTitle, String chapterId, String number,
      String chapterTitle, String language) {
    this(source, titleId, seriesTitle, chapterId, number, chapterTitle, language, AgeRating.UNRATED);
  }

  /** The key of a chapter of a job, named by the job's current title and rated as it; the one place keys are built. */
  public static ChapterKey of(Job job, ChapterEntry chapter) {
    return new ChapterKey(job.source(), job.titleId(), job.title(), chapter.id(), chapter.number(), chapter.title(),
        job.language(), job.rating());
  }
}
