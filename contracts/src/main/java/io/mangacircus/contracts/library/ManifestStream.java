package io.mangacircus.contracts.library;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.mangacircus.contracts.IsoInstant;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code chapter.json} of the usual shape token by token, keeping only the manifest's fields (no tree): every
 * known field at most once and of its usual JSON type, pages an array of objects. Whatever else it meets (a duplicate
 * field, a number where text is usual, a page file that is refused, a file that is not valid JSON...) it gives up on
 * with null, and {@link ChapterManifest#parse} lets the tree reader judge the file, so the two never answer apart.
 */
final class ManifestStream {

  private static final int SCHEMA = 1;
  private static final int SOURCE = 1 << 1;
  private static final int TITLE_ID = 1 << 2;
  private static final int SERIES = 1 << 3;
  private static final int CHAPTER_ID = 1 << 4;
  private static final int NUMBER = 1 << 5;
  private static final int TITLE = 1 << 6;
  private static final int LANGUAGE = 1 << 7;
  private static final int FINGERPRINT = 1 << 8;
  private static final int PUBLISHED_AT = 1 << 9;
  private static final int PUBLISHED = 1 << 10;
  private static final int PAGES = 1 << 11;
  private static final int AGE_RATING = 1 << 12;

  /** The reader gave up on this file: the tree reader decides. */
  private static final class GiveUp extends Exception {
    GiveUp() {
      super(null, null, false, false);
    }
  }

  private static final GiveUp GIVE_UP = new GiveUp();

  private ManifestStream() {
  }

  /** The manifest, or null when the file is not of the usual shape or is refused (then the tree reader decides). */
  static ChapterManifest read(JsonFactory factory, byte[] bytes) {
    return read(factory, bytes, bytes.length);
  }

  /** {@link #read(JsonFactory, byte[])} of the first {@code length} bytes of {@code bytes}. */
  static ChapterManifest read(JsonFactory factory, byte[] bytes, int length) {
    return read(factory, bytes, length, false);
  }

  /**
   * {@link #read(JsonFactory, byte[], int)}; with {@code outline} the values a listing does not keep (the pages'
   * sha256, chapterId, fingerprint, language) are checked for their JSON type like the others but never made strings.
   */
  static ChapterManifest read(JsonFactory factory, byte[] bytes, int length, boolean outline) {
    try (JsonParser parser = factory.createParser(bytes, 0, length)) {
      return read(parser, outline);
    } catch (GiveUp | IOException | RuntimeException e) {
      return null;
    }
  }

  private static ChapterManifest read(JsonParser parser, boolean outline) throws IOException, GiveUp {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw GIVE_UP;
    }
    int seen = 0;
    int schema = 0;
    String source = "";
    String titleId = "";
    String series = "";
    String chapterId = "";
    String number = "";
    String title = "";
    String language = "en";
    String fingerprint = null;
    String publishedAt = null;
    String published = null;
    List<ChapterManifest.Page> pages = List.of();
    String ageRating = null;
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      int field = field(name);
      if ((seen & field) != 0) {
        throw GIVE_UP;   // a duplicate: the tree keeps the last one
      }
      seen |= field;
      switch (field) {
        case SCHEMA -> {
          if (value == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT) {
            schema = parser.getIntValue();
          } else if (value != JsonToken.VALUE_NULL) {
            throw GIVE_UP;
          }
        }
        case SOURCE -> source = text(parser, value);
        case TITLE_ID -> titleId = text(parser, value);
        case SERIES -> series = text(parser, value);
        case CHAPTER_ID -> chapterId = outline ? skipped(value, false, "") : text(parser, value);
        case NUMBER -> number = text(parser, value);
        case TITLE -> title = text(parser, value);
        case LANGUAGE -> language = outline ? skipped(value, false, "en") : text(parser, value);
        case FINGERPRINT -> fingerprint = outline ? skipped(value, true, null) : textOrNull(parser, value);
        case PUBLISHED_AT -> publishedAt = textOrNull(parser, value);
        case PUBLISHED -> published = textOrNull(parser, value);
        case PAGES -> pages = pages(parser, value, outline);
        case AGE_RATING -> ageRating = textOrNull(parser, value);
        default -> parser.skipChildren();
      }
    }
    if (schema < 0 || schema > ChapterManifest.SCHEMA) {
      throw GIVE_UP;   // refused: the tree reader words the reason
    }
    Instant at = null;
    try {
      String when = schema == 0 && (seen & PUBLISHED) != 0 ? published : publishedAt;
      at = when == null ? null : IsoInstant.parse(when);
    } catch (DateTimeParseException e) {
      // shown without a date, as the tree reader does
    }
    return new ChapterManifest(ChapterManifest.SCHEMA, source, titleId, series, chapterId, number, title, language,
        fingerprint, at, pages, ChapterManifest.ageRating(ageRating));
  }

  /** What the page-file pattern {@code [A-Za-z0-9][A-Za-z0-9._-]{0,99}} matches, without a Matcher per page. */
  static boolean pageFile(String file) {
    return LibraryLayout.isPlainName(file, 100);
  }

  private static int field(String name) {
    return switch (name) {
      case "schema" -> SCHEMA;
      case "source" -> SOURCE;
      case "titleId" -> TITLE_ID;
      case "series" -> SERIES;
      case "chapterId" -> CHAPTER_ID;
      case "number" -> NUMBER;
      case "title" -> TITLE;
      case "language" -> LANGUAGE;
      case "fingerprint" -> FINGERPRINT;
      case "publishedAt" -> PUBLISHED_AT;
      case "published" -> PUBLISHED;
      case "pages" -> PAGES;
      case "ageRating" -> AGE_RATING;
      default -> 0;
    };
  }

  private static String text(JsonParser parser, JsonToken value) throws IOException, GiveUp {
    if (value != JsonToken.VALUE_STRING) {
      throw GIVE_UP;
    }
    return parser.getText();
  }

  private static String textOrNull(JsonParser parser, JsonToken value) throws IOException, GiveUp {
    return value == JsonToken.VALUE_NULL ? null : text(parser, value);
  }

  /**
   * A text value checked as {@link #text} (or {@link #textOrNull}) checks it, but not read: the parser skips a string
   * nobody asked for without making it one.
   */
  private static String skipped(JsonToken value, boolean nullable, String instead) throws GiveUp {
    if (value != JsonToken.VALUE_STRING && !(nullable && value == JsonToken.VALUE_NULL)) {
      throw GIVE_UP;
    }
    return instead;
  }

  private static List<ChapterManifest.Page> pages(JsonParser parser, JsonToken value, boolean outline)
      throws IOException, GiveUp {
    if (value != JsonToken.START_ARRAY) {
      throw GIVE_UP;
    }
    List<ChapterManifest.Page> pages = new ArrayList<>();
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
      if (token != JsonToken.START_OBJECT) {
        throw GIVE_UP;
      }
      String file = null;
      long size = -1;
      String sha256 = null;
      for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
        String name = parser.currentName();
        JsonToken v = parser.nextToken();
        switch (name) {
          case "file" -> {
            if (file != null) {
              throw GIVE_UP;
            }
            file = text(parser, v);
          }
          case "size" -> {
            if (size != -1 || v != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT
                && parser.getNumberType() != JsonParser.NumberType.LONG || parser.getLongValue() < 0) {
              throw GIVE_UP;
            }
            size = parser.getLongValue();
          }
          case "sha256" -> {
            if (sha256 != null) {
              throw GIVE_UP;
            }
            sha256 = outline ? skipped(v, false, "") : text(parser, v);
          }
          default -> parser.skipChildren();
        }
      }
      if (file == null || !pageFile(file)) {
        throw GIVE_UP;
      }
      pages.add(new ChapterManifest.Page(pages.size() + 1, file, size, sha256 == null ? "" : sha256));
    }
    return pages;
  }
}
