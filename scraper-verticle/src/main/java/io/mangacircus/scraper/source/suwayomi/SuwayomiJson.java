package io.mangacircus.scraper.source.suwayomi;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitlePreview;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the answers of Suwayomi's GraphQL operations ({@link SuwayomiOperations}) into MangaCircus's records: mangas as
 * hits and metadata, chapters with their number, language and upload date. An answer of another shape is a
 * {@link FetchOutcome.ParseError} naming what is missing.
 */
final class SuwayomiJson {

  private SuwayomiJson() {
  }

  /** The object at {@code field} of {@code data}, or a parse error naming it. */
  static FetchOutcome<JsonObject> object(JsonObject data, String field, String what) {
    Object value = data.getValue(field);
    return value instanceof JsonObject object ? new FetchOutcome.Ok<>(object)
        : new FetchOutcome.ParseError<>(what + ": the Suwayomi answer has no " + field);
  }

  /** The array at {@code field} of {@code object}, or a parse error naming it. */
  static FetchOutcome<JsonArray> array(JsonObject object, String field, String what) {
    Object value = object.getValue(field);
    return value instanceof JsonArray array ? new FetchOutcome.Ok<>(array)
        : new FetchOutcome.ParseError<>(what + ": the Suwayomi answer has no list " + field);
  }

  /** A manga's {@code Int} id as MangaCircus keeps a title id; null when absent. */
  static String mangaId(JsonObject manga) {
    Object id = manga.getValue("id");
    return id instanceof Number n ? String.valueOf(n.longValue()) : null;
  }

  /** A search hit; the cover is the server's own thumbnail path made absolute (it needs the same credentials). */
  static TitleHit hit(JsonObject manga, String baseUrl, String language) {
    return new TitleHit(mangaId(manga), text(manga, "title"), List.of(), null, status(manga.getString("status")),
        language == null ? List.of() : List.of(language), null, thumbnail(manga, baseUrl), manga.getString("realUrl"));
  }

  /** The server's thumbnail of a manga as an absolute URL on the server; null when it has none. */
  static String thumbnail(JsonObject manga, String baseUrl) {
    String path = manga.getString("thumbnailUrl");
    return path == null || !path.startsWith("/") || path.startsWith("//") ? null : baseUrl + path;
  }

  /** What the source says of the series. */
  static SourceSeriesMetadata metadata(String source, JsonObject manga) {
    List<SourceSeriesMetadata.Author> authors = new ArrayList<>();
    String author = manga.getString("author");
    if (author != null && !author.isBlank()) {
      authors.add(new SourceSeriesMetadata.Author(author.strip(), "writer"));
    }
    String artist = manga.getString("artist");
    if (artist != null && !artist.isBlank()) {
      authors.add(new SourceSeriesMetadata.Author(artist.strip(), "penciller"));
    }
    return new SourceSeriesMetadata(SourceSeriesMetadata.SCHEMA, source, mangaId(manga), text(manga, "title"),
        manga.getString("description"), authors, genres(manga), List.of(), status(manga.getString("status")), null,
        null, List.of());
  }

  /** The manga's genres (Suwayomi splits them into a list already). */
  static List<String> genres(JsonObject manga) {
    JsonArray genre = manga.getJsonArray("genre");
    List<String> genres = new ArrayList<>();
    if (genre != null) {
      for (Object g : genre) {
        if (g instanceof String s && !s.isBlank()) {
          genres.add(s.strip());
        }
      }
    }
    return genres;
  }

  /** Suwayomi's {@code MangaStatus} in the words the library uses; null for {@code UNKNOWN}. */
  static String status(String status) {
    if (status == null) {
      return null;
    }
    return switch (status) {
      case "ONGOING" -> "ongoing";
      case "COMPLETED", "PUBLISHING_FINISHED" -> "completed";
      case "CANCELLED" -> "cancelled";
      case "ON_HIATUS" -> "hiatus";
      case "LICENSED" -> "licensed";
      default -> null;
    };
  }

  /**
   * The chapters of a {@code fetchChapters} answer in reading order (ascending {@code sourceOrder}), all in the source's
   * language.
   */
  static FetchOutcome<List<TitlePreview.Chapter>> chapters(JsonArray chapters, String language, String what) {
    List<JsonObject> objects = new ArrayList<>();
    for (Object chapter : chapters) {
      if (!(chapter instanceof JsonObject object) || !(object.getValue("id") instanceof Number)) {
        return new FetchOutcome.ParseError<>(what + ": a chapter of the Suwayomi answer has no id");
      }
      objects.add(object);
    }
    objects.sort(java.util.Comparator.comparingLong(c -> c.getValue("sourceOrder") instanceof Number n
        ? n.longValue() : Long.MAX_VALUE));
    List<TitlePreview.Chapter> read = new ArrayList<>();
    for (JsonObject chapter : objects) {
      ChapterInfo info = new ChapterInfo(String.valueOf(((Number) chapter.getValue("id")).longValue()),
          number(chapter), text(chapter, "name"), language);
      read.add(new TitlePreview.Chapter(info, List.of(), uploaded(chapter.getValue("uploadDate"))));
    }
    return new FetchOutcome.Ok<>(read);
  }

  /**
   * A chapter's number as written ({@code 12}, {@code 12.5}) from its {@code chapterNumber}; a chapter the source
   * numbers -1 (unknown) takes its {@code sourceOrder}, its place in the list.
   */
  static String number(JsonObject chapter) {
    Object number = chapter.getValue("chapterNumber");
    if (number instanceof Number n && n.doubleValue() >= 0 && Double.isFinite(n.doubleValue())) {
      // Suwayomi keeps a Float: its decimal text (12.1, not 12.100000381) is what the source wrote.
      return new BigDecimal(Float.toString(n.floatValue())).stripTrailingZeros().toPlainString();
    }
    Object order = chapter.getValue("sourceOrder");
    return order instanceof Number n ? String.valueOf(n.longValue()) : "0";
  }

  /** {@code uploadDate}, epoch milliseconds as a string ({@code LongString}); null when absent, zero or unreadable. */
  static Instant uploaded(Object uploadDate) {
    String text = uploadDate == null ? null : String.valueOf(uploadDate).trim();
    if (text == null || !text.matches("\\d{1,15}")) {
      return null;
    }
    long ms = Long.parseLong(text);
    return ms == 0 ? null : Instant.ofEpochMilli(ms);
  }

  private static String text(JsonObject object, String field) {
    String value = object.getString(field);
    return value == null ? "" : value.strip();
  }

  /** A language code as the library writes it: Suwayomi's {@code lang}, lower case. */
  static String language(String lang) {
    return lang == null || lang.isBlank() ? "en" : lang.strip().toLowerCase(Locale.ROOT);
  }
}
