package io.mangacircus.support.xml;

import io.mangacircus.contracts.rating.AgeRating;

/**
 * A chapter's {@code ComicInfo.xml} (the Anansi ComicInfo schema reading apps read from a CBZ), written by the scraper
 * into each published chapter and by the reader for a chapter that has none; every value escaped by {@link XmlText}.
 *
 * @param title the chapter's title; empty or null: no {@code <Title>}
 * @param language an ISO language code; empty or null: no {@code <LanguageISO>}
 * @param notes free text; empty or null: no {@code <Notes>}
 * @param ageRating the title's age rating, written as {@code <AgeRating>} ({@link AgeRating#comicInfo()}); null or
 *     unrated: no {@code <AgeRating>}
 */
public record ComicInfo(String series, String number, String title, int pageCount, String language, String notes,
    AgeRating ageRating) {

  /** A document without an age rating. */
  public ComicInfo(String series, String number, String title, int pageCount, String language, String notes) {
    this(series, number, title, pageCount, language, notes, null);
  }

  /** The document, UTF-8 text. */
  public String xml() {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        + "<ComicInfo xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
        + "  <Series>" + XmlText.escape(series) + "</Series>\n"
        + "  <Number>" + XmlText.escape(number) + "</Number>\n"
        + optional("Title", title)
        + "  <PageCount>" + pageCount + "</PageCount>\n"
        + optional("LanguageISO", language)
        + optional("AgeRating", ageRating == null ? null : ageRating.comicInfo().orElse(null))
        + optional("Notes", notes)
        + "</ComicInfo>\n";
  }

  private static String optional(String element, String value) {
    return value == null || value.isEmpty() ? "" : "  <" + element + ">" + XmlText.escape(value) + "</" + element
        + ">\n";
  }
}
