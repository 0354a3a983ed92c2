package io.mangacircus.support.xml;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.contracts.rating.AgeRating;
import java.util.List;

/**
 * A chapter's {@code ComicInfo.xml} (the Anansi ComicInfo schema reading apps read from a CBZ), written by the scraper
 * into each published chapter and by the reader for a chapter that has none; every value escaped by {@link XmlText}.
 *
 * @param title the chapter's title; empty or null: no {@code <Title>}
 * @param language an ISO language code; empty or null: no {@code <LanguageISO>}
 * @param notes free text; empty or null: no {@code <Notes>}
 * @param ageRating the title's age rating, written as {@code <AgeRating>} ({@link AgeRating#comicInfo()}); null or
 *     unrated: no {@code <AgeRating>}
 * @param about what the source says of the series, written as {@code <Summary>}, {@code <Writer>},
 *     {@code <Penciller>}, {@code <Genre>}, {@code <Tags>} and {@code <Web>} (each only when known); null: none of them
 */
public record ComicInfo(String series, String number, String title, int pageCount, String language, String notes,
    AgeRating ageRating, SourceSeriesMetadata about) {

  /** A document without an age rating. */
  public ComicInfo(String series, String number, String title, int pageCount, String language, String notes) {
    this(series, number, title, pageCount, language, notes, null);
  }

  /** A document without the source's description of the series. */
  public ComicInfo(String series, String number, String title, int pageCount, String language, String notes,
      AgeRating ageRating) {
    this(series, number, title, pageCount, language, notes, ageRating, null);
  }

  /** The document, UTF-8 text. */
  public String xml() {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        + "<ComicInfo xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
        + "  <Series>" + XmlText.escape(series) + "</Series>\n"
        + "  <Number>" + XmlText.escape(number) + "</Number>\n"
        + optional("Title", title)
        + (about == null ? "" : optional("Summary", about.summary())
            + optional("Writer", people(about, "writer"))
            + optional("Penciller", people(about, "penciller"))
            + optional("Genre", String.join(", ", about.genres()))
            + optional("Tags", String.join(", ", about.tags()))
            + optional("Web", String.join(" ", about.links().stream().map(SourceSeriesMetadata.Link::url).toList())))
        + "  <PageCount>" + pageCount + "</PageCount>\n"
        + optional("LanguageISO", language)
        + optional("AgeRating", ageRating == null ? null : ageRating.comicInfo().orElse(null))
        + optional("Notes", notes)
        + "</ComicInfo>\n";
  }

  /** The names of one role, comma-separated as ComicInfo lists people. */
  private static String people(SourceSeriesMetadata about, String role) {
    List<String> names = about.authors().stream().filter(a -> a.role().equals(role))
        .map(SourceSeriesMetadata.Author::name).toList();
    return String.join(", ", names);
  }

  private static String optional(String element, String value) {
    return value == null || value.isEmpty() ? "" : "  <" + element + ">" + XmlText.escape(value) + "</" + element
        + ">\n";
  }
}
