package io.mangacircus.scraper.source;

import java.util.List;

/**
 * One title a source's search found, with its cover as the source's own URL (the search service hands out an opaque
 * id for it, never the URL).
 *
 * @param titleId the source's title id
 * @param title its name
 * @param altTitles other names
 * @param year year of first publication, or null
 * @param status e.g. {@code ongoing}, or null
 * @param languages languages chapters exist in, maybe empty
 * @param chapterCount chapters, where cheap to know, else null
 * @param coverUrl where its cover is, or null
 * @param url the title's page, or null
 */
public record TitleHit(String titleId, String title, List<String> altTitles, Integer year, String status,
    List<String> languages, Integer chapterCount, String coverUrl, String url) {

  public TitleHit {
    altTitles = List.copyOf(altTitles);
    languages = List.copyOf(languages);
  }

  /** A hit that knows only its id, name and page. */
  public static TitleHit of(String titleId, String title, String url) {
    return new TitleHit(titleId, title, List.of(), null, null, List.of(), null, null, url);
  }
}
