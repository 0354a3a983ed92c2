package io.mangacircus.reader.komga;

import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.SeriesEntry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * Komga's JSON shapes for our series, chapters (books) and pages: every key that the Komga source of Mihon reads (its
 * {@code dto/Dto.kt}: {@code SeriesDto}, {@code SeriesMetadataDto}, {@code BookMetadataAggregationDto},
 * {@code BookDto}, {@code MediaDto}, {@code BookMetadataDto}, {@code PageDto}, {@code LibraryDto},
 * {@code CollectionDto}) is present, and a value we do not have is {@code null} where that DTO allows it, else empty.
 * No Vert.x routing.
 */
public final class KomgaShapes {

  /** The one library every series is in. */
  public static final String LIBRARY_ID = "mangacircus";

  private KomgaShapes() {
  }

  /** {@code LibraryDto} of the library named {@code name}. */
  public static JsonObject library(String name) {
    return new JsonObject().put("id", libraryId(name))
        .put("name", SeriesEntry.DOWNLOADS.equals(name) ? "Downloads" : name).put("root", "")
        .put("unavailable", false);
  }

  /**
   * The Komga library id of a library: its name, but the downloads library keeps the id it had when it was the only
   * one, so a reading app's saved library filter still names it.
   */
  public static String libraryId(String name) {
    return SeriesEntry.DOWNLOADS.equals(name) ? LIBRARY_ID : name;
  }

  /**
   * {@code CollectionDto}: its times those of its newest series (collections keep none of their own); its series
   * those of {@code library} (what the account sees), {@code filtered} when that left some out, as Komga says of a
   * collection seen through a restriction.
   *
   * @param library the library's series the account sees, for the members and the times
   */
  public static JsonObject collection(CatalogStore.Collection collection, List<SeriesEntry> library) {
    java.util.Set<String> listed = new java.util.HashSet<>();
    library.forEach(s -> listed.add(s.id()));
    List<String> shown = collection.series().stream().filter(listed::contains).toList();
    java.util.Set<String> members = new java.util.HashSet<>(shown);
    Instant newest = library.stream().filter(s -> members.contains(s.id())).map(SeriesEntry::updatedAt)
        .filter(java.util.Objects::nonNull).max(Instant::compareTo).orElse(Instant.EPOCH);
    return new JsonObject().put("id", collection.id()).put("name", collection.name()).put("ordered", true)
        .put("seriesIds", new JsonArray(shown)).put("createdDate", time(newest))
        .put("lastModifiedDate", time(newest)).put("filtered", shown.size() < collection.series().size());
  }

  /**
   * {@code SeriesDto}.
   *
   * @param created when the series' first chapter was published, or null when not known
   * @param counts how many of its chapters the user read, is reading, has not read
   */
  public static JsonObject series(SeriesEntry series, Instant created, KomgaReading.Counts counts, AgeRating rating) {
    String updated = time(series.updatedAt() == null ? Instant.EPOCH : series.updatedAt());
    String first = created == null ? updated : time(created);
    JsonObject metadata = new JsonObject().put("status", "ONGOING").put("statusLock", false)
        .put("created", first).put("lastModified", updated)
        .put("title", series.title()).put("titleLock", false).put("titleSort", series.title())
        .put("titleSortLock", false)
        .put("summary", "").put("summaryLock", false).put("readingDirection", "").put("readingDirectionLock", false)
        .put("publisher", "").put("publisherLock", false).put("ageRating", rating.minimumAge().orElse(null)).put("ageRatingLock", false)
        .put("language", "").put("languageLock", false).put("genres", new JsonArray()).put("genresLock", false)
        .put("tags", new JsonArray()).put("tagsLock", false).put("totalBookCount", null)
        .put("totalBookCountLock", false);
    JsonObject books = new JsonObject().put("authors", new JsonArray()).put("tags", new JsonArray())
        .put("releaseDate", null).put("summary", "").put("summaryNumber", "").put("created", first)
        .put("lastModified", updated);
    return new JsonObject().put("id", series.id()).put("libraryId", libraryId(series.library()))
        .put("name", series.title())
        .put("url", "").put("created", first).put("lastModified", updated).put("fileLastModified", updated)
        .put("booksCount", series.chapters()).put("booksReadCount", counts.read())
        .put("booksUnreadCount", counts.unread()).put("booksInProgressCount", counts.inProgress())
        .put("metadata", metadata).put("booksMetadata", books)
        .put("deleted", false);
  }

  /**
   * {@code BookDto} of a chapter: its {@code number} the chapter's place in the series (from 1), its
   * {@code metadata.numberSort} the chapter's own number where that is a number, else that place. Reads the page
   * files' sizes: call it off the event loop.
   *
   * @param position the chapter's place in the series, from 1
   */
  public static JsonObject book(LibraryFiles.Chapter chapter, int position) {
    String published = chapter.publishedAt() == null ? null : time(chapter.publishedAt());
    long bytes = 0;
    for (LibraryFiles.Page page : chapter.pages()) {
      try {
        bytes += page.part() != null ? page.part().entry().uncompressedSize() : Files.size(page.file());
      } catch (IOException e) {
        // a page that went missing counts nothing; serving it answers 404 on its own
      }
    }
    String title = chapter.title() == null || chapter.title().isBlank() ? "Chapter " + chapter.number()
        : chapter.title();
    JsonObject media = new JsonObject().put("status", "READY").put("mediaType", "application/zip")
        .put("pagesCount", chapter.pages().size()).put("comment", "").put("mediaProfile", "DIVINA")
        .put("epubDivinaCompatible", false);
    JsonObject metadata = new JsonObject().put("title", title).put("titleLock", false).put("summary", "")
        .put("summaryLock", false).put("number", chapter.number()).put("numberLock", false)
        .put("numberSort", numberSort(chapter.number(), position)).put("numberSortLock", false)
        .put("releaseDate", chapter.publishedAt() == null ? null
            : chapter.publishedAt().atOffset(ZoneOffset.UTC).toLocalDate().toString())
        .put("releaseDateLock", false).put("authors", new JsonArray()).put("authorsLock", false)
        .put("tags", new JsonArray()).put("tagsLock", false).put("isbn", "").put("isbnLock", false)
        .put("created", published).put("lastModified", published);
    return new JsonObject().put("id", KomgaIds.bookId(chapter.seriesId(), chapter.id()))
        .put("seriesId", chapter.seriesId()).put("seriesTitle", chapter.seriesTitle()).put("libraryId", LIBRARY_ID)
        .put("name", title).put("url", "").put("number", position).put("created", published)
        .put("lastModified", published)
        .put("fileLastModified", published == null ? time(Instant.EPOCH) : published)
        .put("sizeBytes", bytes).put("size", size(bytes)).put("media", media).put("metadata", metadata)
        .put("readProgress", null).put("deleted", false).put("fileHash", "");
  }

  /** {@code PageDto} list of a chapter: {@code number} from 1. */
  public static JsonArray pages(LibraryFiles.Chapter chapter) {
    JsonArray pages = new JsonArray();
    for (LibraryFiles.Page page : chapter.pages()) {
      String name = page.part() != null ? page.part().entry().name() : page.file().getFileName().toString();
      pages.add(new JsonObject().put("number", page.index()).put("fileName", name.substring(name.lastIndexOf('/') + 1))
          .put("mediaType", page.mediaType()).put("width", null).put("height", null).put("sizeBytes", null));
    }
    return pages;
  }

  /** The chapter's own number when it is one (Mihon sorts and tracks by it), else its place. */
  static float numberSort(String number, int position) {
    if (number != null) {
      try {
        return new BigDecimal(number.trim()).floatValue();
      } catch (NumberFormatException e) {
        // not a number: by place
      }
    }
    return position;
  }

  /** Komga's human size, binary units with one decimal. */
  static String size(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /** A time as Komga writes it, to the second (the source parses {@code yyyy-MM-dd'T'HH:mm:ss}). */
  private static String time(Instant instant) {
    return instant.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }
}
