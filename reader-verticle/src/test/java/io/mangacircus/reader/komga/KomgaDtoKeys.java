package io.mangacircus.reader.komga;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The keys and JSON types that Mihon's Komga source decodes, copied from its DTOs (keiyoushi/extensions-source
 * {@code src/all/komga/src/eu/kanade/tachiyomi/extension/all/komga/dto/Dto.kt} and {@code PageWrapperDto.kt}); a key
 * without a default there must be present, {@code ?} marks the nullable ones. Asserts an answer against them.
 */
final class KomgaDtoKeys {

  static final String[] PAGE_WRAPPER = {"content:array", "empty:boolean", "first:boolean", "last:boolean",
      "number:number", "numberOfElements:number", "size:number", "totalElements:number", "totalPages:number"};
  static final String[] LIBRARY = {"id:string", "name:string"};
  static final String[] COLLECTION = {"id:string", "name:string", "ordered:boolean", "seriesIds:array",
      "createdDate:string", "lastModifiedDate:string", "filtered:boolean"};
  static final String[] SERIES = {"id:string", "libraryId:string", "name:string", "created:string?",
      "lastModified:string?", "fileLastModified:string", "booksCount:number", "metadata:object",
      "booksMetadata:object"};
  static final String[] SERIES_METADATA = {"status:string", "created:string?", "lastModified:string?", "title:string",
      "titleSort:string", "summary:string", "summaryLock:boolean", "readingDirection:string",
      "readingDirectionLock:boolean", "publisher:string", "publisherLock:boolean", "ageRating:number?",
      "ageRatingLock:boolean", "language:string", "languageLock:boolean", "genres:array", "genresLock:boolean",
      "tags:array", "tagsLock:boolean", "totalBookCount:number?"};
  static final String[] BOOKS_METADATA = {"authors:array", "tags:array", "releaseDate:string?", "summary:string",
      "summaryNumber:string", "created:string", "lastModified:string"};
  static final String[] BOOK = {"id:string", "seriesId:string", "seriesTitle:string", "name:string", "number:number",
      "created:string?", "lastModified:string?", "fileLastModified:string", "sizeBytes:number", "size:string",
      "media:object", "metadata:object"};
  static final String[] MEDIA = {"status:string", "mediaType:string", "pagesCount:number", "mediaProfile:string",
      "epubDivinaCompatible:boolean"};
  static final String[] BOOK_METADATA = {"title:string", "titleLock:boolean", "summary:string",
      "summaryLock:boolean", "number:string", "numberLock:boolean", "numberSort:number", "numberSortLock:boolean",
      "releaseDate:string?", "releaseDateLock:boolean", "authors:array", "authorsLock:boolean", "tags:array",
      "tagsLock:boolean"};
  /** {@code ReadProgressDto} (the source's and Komga's {@code BookDto.readProgress}). */
  static final String[] READ_PROGRESS = {"page:number", "completed:boolean", "readDate:string", "created:string",
      "lastModified:string"};
  /** The series' counts of Komga's {@code SeriesDto}. */
  static final String[] SERIES_COUNTS = {"booksReadCount:number", "booksUnreadCount:number",
      "booksInProgressCount:number"};
  /**
   * The tracker's {@code ReadProgressV2Dto} (mihonapp/mihon
   * {@code app/src/main/java/eu/kanade/tachiyomi/data/track/komga/KomgaModels.kt}), Komga's {@code TachiyomiReadProgressV2Dto}.
   */
  static final String[] TRACKER_PROGRESS = {"booksCount:number", "booksReadCount:number", "booksUnreadCount:number",
      "booksInProgressCount:number", "lastReadContinuousNumberSort:number", "maxNumberSort:number"};
  static final String[] PAGE = {"number:number", "fileName:string", "mediaType:string"};
  static final String[] ERROR = {"timestamp:string", "status:number", "error:string", "message:string",
      "path:string"};

  private KomgaDtoKeys() {
  }

  /** Asserts that {@code json} has every key of {@code dto} with its type. */
  static void assertShape(String what, JsonObject json, String... dto) {
    for (String key : dto) {
      String[] parts = key.split(":");
      String name = parts[0];
      boolean nullable = parts[1].endsWith("?");
      String type = nullable ? parts[1].substring(0, parts[1].length() - 1) : parts[1];
      assertThat(json.containsKey(name)).as(what + " has key " + name + ": " + json.encode()).isTrue();
      Object value = json.getValue(name);
      if (value == null) {
        assertThat(nullable).as(what + "." + name + " is null but the client requires a " + type).isTrue();
        continue;
      }
      Class<?> expected = switch (type) {
        case "string" -> String.class;
        case "number" -> Number.class;
        case "boolean" -> Boolean.class;
        case "array" -> JsonArray.class;
        case "object" -> JsonObject.class;
        default -> throw new IllegalArgumentException(type);
      };
      assertThat(value).as(what + "." + name + " is a " + type).isInstanceOf(expected);
    }
  }

  /** A Komga time the source parses ({@code yyyy-MM-dd'T'HH:mm:ss} at the start). */
  static void assertTime(String what, String value) {
    assertThat(value).as(what).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}.*");
  }
}
