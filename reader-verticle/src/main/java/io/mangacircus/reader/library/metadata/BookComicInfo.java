package io.mangacircus.reader.library.metadata;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Author;
import java.util.List;

/**
 * What one book's ComicInfo.xml says, cleaned ({@link ComicInfoReader}). Missing values follow {@link SeriesMetadata}:
 * null for a single value, an empty list for a list, {@link AgeRating#UNRATED} for the rating.
 *
 * @param series {@code Series}: the series' name
 * @param number {@code Number}: the book's number in the series, as text ("1", "10.5")
 * @param title {@code Title}: the book's own title
 * @param volume {@code Volume}, when above zero
 * @param count {@code Count}: books in the series, when above zero
 * @param summary {@code Summary}, line breaks kept
 * @param year {@code Year}, when above zero
 * @param month {@code Month}, when 1 to 12
 * @param day {@code Day}, when 1 to 31
 * @param authors {@code Writer}, {@code Penciller}, {@code Inker}, {@code Colorist}, {@code Letterer},
 *     {@code CoverArtist}, {@code Editor}, {@code Translator}: comma-separated names, each with its role
 * @param publisher {@code Publisher}
 * @param genres {@code Genre}, comma-separated
 * @param tags {@code Tags}, comma-separated
 * @param links {@code Web}: space-separated http(s) URLs
 * @param language {@code LanguageISO} as a BCP 47 tag
 * @param ageRating {@code AgeRating} ({@link AgeRating#fromComicInfo})
 * @param manga {@code Manga}: whether it is a manga and reads right to left, or null for {@code Unknown}
 */
public record BookComicInfo(String series, String number, String title, Integer volume, Integer count, String summary,
    Integer year, Integer month, Integer day, List<Author> authors, String publisher, List<String> genres,
    List<String> tags, List<String> links, String language, AgeRating ageRating, Manga manga) {

  public BookComicInfo {
    authors = authors == null ? List.of() : List.copyOf(authors);
    genres = genres == null ? List.of() : List.copyOf(genres);
    tags = tags == null ? List.of() : List.copyOf(tags);
    links = links == null ? List.of() : List.copyOf(links);
    ageRating = ageRating == null ? AgeRating.UNRATED : ageRating;
  }

  /** The series-level part of this book's ComicInfo ({@code Series} is the series' title; no status: none is kept). */
  public SeriesMetadata seriesMetadata() {
    return new SeriesMetadata(series, summary, authors, genres, tags, ageRating, language, links, year, null,
        publisher);
  }

  /** ComicInfo's {@code Manga} values other than {@code Unknown}. */
  public enum Manga {
    /** {@code No}. */
    NO,
    /** {@code Yes}: a manga, reading direction not said. */
    YES,
    /** {@code YesAndRightToLeft}: a manga read right to left. */
    YES_AND_RIGHT_TO_LEFT
  }
}
