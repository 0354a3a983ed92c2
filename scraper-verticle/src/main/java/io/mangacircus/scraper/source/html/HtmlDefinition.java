package io.mangacircus.scraper.source.html;

import java.util.List;

/**
 * A website described by a JSON definition ({@code conf/sources/<name>.json}): where its title and chapter pages
 * are, and the CSS selectors that find a title's name, its chapters and a chapter's page images. Read and checked by
 * {@link HtmlDefinitions}, which fills in the defaults below; {@code docs/sources.md} documents every key.
 *
 * @param name a human name for logs, e.g. {@code MangaPill}
 * @param notes free text for the people who maintain the definition; never read by the program. Optional.
 * @param baseUrl the site's root, {@code http(s)://host[:port]} without a path; a source's {@code baseUrl} wins
 * @param titleUrl path of a title page below the base URL, with {@code {titleId}}, e.g. {@code /manga/{titleId}}
 * @param titleIdPattern a regex with a named group {@code id}, looked for in a title reference (URL or path) to
 *     find the title id; a reference it does not match is taken as the id itself
 * @param chapterUrl path of a chapter page, with {@code {chapterId}} (and optionally {@code {titleId}})
 * @param language the language of the site's chapters, an ISO 639-1 code or a BCP 47 tag as MangaDex writes them
 *     ({@code en}, {@code fr}, {@code pt-br}), stored lower-case; the language of every chapter unless
 *     {@code chapters.language} reads another from the chapter list. Default {@code en}.
 * @param title where the title's name is on the title page ({@code selector} required)
 * @param chapters where the chapters are on the title page
 * @param pages where the page images are on a chapter page
 * @param pacing default delays for sources that do not set their own. Optional.
 * @param challengeMarkers texts of the site's access-challenge pages, added to the source's markers. Default none.
 * @param seriesFolderPrefix put before the series folder name in the library, e.g. {@code mangapill-} gives
 *     {@code data/library/mangapill-one-piece/}; lower-case letters, digits and dashes. Default none.
 * @param search where the site's title search is and how to read its results. Optional: without it the source cannot
 *     search.
 */
public record HtmlDefinition(String name, String notes, String baseUrl, String titleUrl, String titleIdPattern,
    String chapterUrl, String language, Field title, Chapters chapters, Pages pages, Pacing pacing,
    List<String> challengeMarkers, String seriesFolderPrefix, Search search) {

  /** A definition without a search block. */
  public HtmlDefinition(String name, String notes, String baseUrl, String titleUrl, String titleIdPattern,
      String chapterUrl, String language, Field title, Chapters chapters, Pages pages, Pacing pacing,
      List<String> challengeMarkers, String seriesFolderPrefix) {
    this(name, notes, baseUrl, titleUrl, titleIdPattern, chapterUrl, language, title, chapters, pages, pacing,
        challengeMarkers, seriesFolderPrefix, null);
  }

  /**
   * The site's title search.
   *
   * @param url path of the search results page below the base URL, with {@code {query}} (URL-encoded when filled
   *     in), e.g. {@code /search?q={query}}
   * @param item CSS selector of one result's element, e.g. {@code .results .result}
   * @param id the title id inside a result (required), as {@code titleUrl} takes it; a title URL is read with
   *     {@code titleIdPattern}
   * @param title the title's name inside a result (required)
   * @param cover the cover image's URL inside a result, e.g. {@code {"selector": "img", "attribute": "src"}}.
   *     Optional; resolved against the results page, kept when it is an http(s) URL (as page images are).
   */
  public record Search(String url, String item, Field id, Field title, Field cover) {
  }

  /** {@link Chapters#order()} for a list that starts with the newest chapter. */
  public static final String NEWEST_FIRST = "newest-first";
  /** {@link Chapters#order()} for a list that starts with the first chapter (the default). */
  public static final String OLDEST_FIRST = "oldest-first";
  /** {@link Field#attribute()} for the element's text (the default). */
  public static final String TEXT = "text";

  /**
   * One value read from the page.
   *
   * @param selector CSS selector below the context (the document, or a chapter item); empty or absent for a chapter
   *     item's own element
   * @param attribute the attribute to read, or {@code text} for the element's text (default)
   * @param pattern a regex with a named group {@code value} that picks the value out of what was read; absent:
   *     the whole (trimmed) text
   */
  public record Field(String selector, String attribute, String pattern) {
  }

  /**
   * The chapter list on a title page.
   *
   * @param item CSS selector of one chapter's element (usually its link), e.g. {@code #chapters a[href]}
   * @param id the chapter id inside an item (required); it is put into {@code chapterUrl}
   * @param number the chapter number inside an item (required), e.g. {@code 12} or {@code 12.5}
   * @param title the chapter's own title inside an item. Optional.
   * @param order {@code oldest-first} (default) or {@code newest-first}: how the site lists chapters
   * @param pagination how to find the next page of a chapter list split over several pages. Optional.
   * @param language the chapter's language inside an item, for a site that lists chapters in several languages, e.g.
   *     {@code {"selector": "img.flag", "attribute": "data-lang"}}. Optional: without it every chapter is in the
   *     definition's {@code language}, as is a chapter whose item has none (the selector matches nothing, the value
   *     is empty or the pattern does not match it). A value that is not a language code is a parser failure.
   */
  public record Chapters(String item, Field id, Field number, Field title, String order, Pagination pagination,
      Field language) {

    /** A chapter list in the definition's one language. */
    public Chapters(String item, Field id, Field number, Field title, String order, Pagination pagination) {
      this(item, id, number, title, order, pagination, null);
    }
  }

  /**
   * A chapter list over several pages.
   *
   * @param next CSS selector of the link ({@code href}) to the next page; when it matches nothing the list is over
   * @param maxPages the most list pages read for one title; a list longer than that is a parser failure. Default
   *     20, at most 100.
   */
  public record Pagination(String next, Integer maxPages) {
  }

  /**
   * The page images on a chapter page.
   *
   * @param image CSS selector of one page image, in reading order, e.g. {@code img.js-page}
   * @param attributes attributes that may hold the image URL, first non-empty wins. Default
   *     {@code ["data-src", "src"]} (lazy-loading sites keep the real URL in {@code data-src}).
   * @param referer whether image requests carry {@code Referer: <base URL>/}, as a browser showing the chapter
   *     would. Default true.
   */
  public record Pages(String image, List<String> attributes, Boolean referer) {
  }

  /**
   * Default delays of sources using this definition that leave them out of their configuration.
   *
   * @param pageDelayMs delay between two page fetches, ms, 0–600000
   * @param chapterDelayMs delay between two chapters, ms, 0–3600000
   */
  public record Pacing(Long pageDelayMs, Long chapterDelayMs) {
  }
}
