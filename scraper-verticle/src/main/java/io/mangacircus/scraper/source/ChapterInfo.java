package io.mangacircus.scraper.source;

/**
 * One chapter as a source lists it.
 *
 * @param id the source's chapter id
 * @param number the chapter number as written ("12", "12.5")
 * @param title chapter title, may be empty
 * @param language language code ("en")
 */
public record ChapterInfo(String id, String number, String title, String language) {
}
