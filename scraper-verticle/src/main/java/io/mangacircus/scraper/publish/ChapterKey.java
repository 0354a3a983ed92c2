package io.mangacircus.scraper.publish;

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
}
