package io.mangacircus.scraper.demosite;

/**
 * One chapter of a demo series.
 *
 * @param id the chapter's id in URLs, e.g. {@code c2-fr}
 * @param number the chapter number as a site shows it, e.g. {@code "2"}
 * @param title the chapter title
 * @param language the ISO 639-1 language code, e.g. {@code en}
 * @param pages how many pages the chapter normally lists
 */
public record DemoChapter(String id, String number, String title, String language, int pages) {
}
