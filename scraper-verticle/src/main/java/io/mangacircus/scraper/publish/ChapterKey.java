package io.mangacircus.scraper.publish;

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
 */
public record ChapterKey(String source, String titleId, String seriesTitle, String chapterId, String number,
    String chapterTitle, String language) {

  /** The key of a chapter of a job, named by the job's current title; the one place keys are built. */
  public static ChapterKey of(Job job, ChapterEntry chapter) {
    return new ChapterKey(job.source(), job.titleId(), job.title(), chapter.id(), chapter.number(), chapter.title(),
        job.language());
  }
}
