package io.mangacircus.reader.library.metadata;

import io.mangacircus.contracts.rating.AgeRating;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What is known about a series, from one source or merged from several ({@link SeriesMetadataMerge}). A missing value
 * is always {@code null} for a single value (text, year, status), an empty list for a list, and
 * {@link AgeRating#UNRATED} for the rating; never a blank string.
 *
 * @param title the series' name, or null
 * @param summary its description, line breaks kept, or null
 * @param authors who made it, each with a role, in the order the source gives them (a name may appear once per role)
 * @param genres genres (for example "Shounen"), without duplicates whatever their case
 * @param tags tags (for example "school life"), without duplicates whatever their case
 * @param ageRating its age rating, {@link AgeRating#UNRATED} when nothing rates it
 * @param language the language of its books as a BCP 47 tag ("en", "pt-BR"), or null
 * @param links web pages about it (http and https only), without duplicates
 * @param year the year it started, or null
 * @param status whether it goes on, or null when unknown
 * @param publisher its publisher, or null
 */
public record SeriesMetadata(String title, String summary, List<Author> authors, List<String> genres, List<String> tags,
    AgeRating ageRating, String language, List<String> links, Integer year, Status status, String publisher) {

  /** Nothing known. */
  public static final SeriesMetadata EMPTY = new SeriesMetadata(null, null, List.of(), List.of(), List.of(),
      AgeRating.UNRATED, null, List.of(), null, null, null);

  public SeriesMetadata {
    title = MetadataText.blankToNull(title);
    summary = MetadataText.blankToNull(summary);
    publisher = MetadataText.blankToNull(publisher);
    language = MetadataText.blankToNull(language);
    authors = authors == null ? List.of() : List.copyOf(authors);
    genres = genres == null ? List.of() : List.copyOf(genres);
    tags = tags == null ? List.of() : List.copyOf(tags);
    links = links == null ? List.of() : List.copyOf(links);
    ageRating = ageRating == null ? AgeRating.UNRATED : ageRating;
  }

  /** The same metadata with another rating. */
  public SeriesMetadata withAgeRating(AgeRating rating) {
    return new SeriesMetadata(title, summary, authors, genres, tags, rating, language, links, year, status, publisher);
  }

  /** A person or organisation and what they did, as Komga's API lists authors ({@code {name, role}}). */
  public record Author(String name, Role role) {
    public Author {
      name = MetadataText.blankToNull(name);
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(role, "role");
    }
  }

  /** What an author did; the codes are Komga's role names, so a Komga-compatible API can pass them through. */
  public enum Role {
    WRITER("writer"),
    PENCILLER("penciller"),
    INKER("inker"),
    COLORIST("colorist"),
    LETTERER("letterer"),
    COVER("cover"),
    EDITOR("editor"),
    TRANSLATOR("translator");

    private final String code;

    Role(String code) {
      this.code = code;
    }

    /** The lower-case name Komga uses for the role. */
    public String code() {
      return code;
    }
  }

  /** Publication status, as MangaDex reports it. */
  public enum Status {
    ONGOING, COMPLETED, HIATUS, CANCELLED;

    /** MangaDex's {@code status} ("ongoing", "completed", "hiatus", "cancelled"; any case), or null for anything else. */
    public static Status fromMangaDex(String status) {
      if (status == null) {
        return null;
      }
      return switch (status.trim().toLowerCase(Locale.ROOT)) {
        case "ongoing" -> ONGOING;
        case "completed" -> COMPLETED;
        case "hiatus" -> HIATUS;
        case "cancelled" -> CANCELLED;
        default -> null;
      };
    }
  }
}
