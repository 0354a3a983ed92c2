package io.mangacircus.contracts.library;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.rating.AgeRating;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code chapter.json} of a published chapter, the one reader and writer of it for scraper and reader alike
 * (docs/downloads.md, "chapter.json"). Schema 1 is written; a file without a schema number (written before numbering)
 * is migrated on read; a newer schema, a file that is not a JSON object, or one naming a page file that is not a plain
 * file name is refused with a reason. A manifest without pages still says whose the folder is; readers do not list it.
 *
 * @param schema always {@link #SCHEMA} once read (older files are migrated)
 * @param source source name; empty when the file names none (hand-made libraries)
 * @param titleId the source's title id; may be empty like {@code source}
 * @param series the series title; empty when the file names none (readers then show the folder's name)
 * @param chapterId the source's chapter id; may be empty
 * @param number chapter number as written
 * @param title chapter title, may be empty
 * @param language language code
 * @param fingerprint the chapter fingerprint, null when the file records none
 * @param publishedAt when it was published, null when unknown or unreadable
 * @param pages the page files, in reading order (a chapter without any is not listed by the reader)
 * @param ageRating the source's age rating of the title when the chapter was published (MangaDex's
 *     {@code contentRating}); {@link AgeRating#UNRATED} when the source gives none. Written as its {@link AgeRating#code()}
 *     and left out when unrated, so a file without it, from before the field or from a source without ratings, reads
 *     as unrated; an unknown code reads as unrated too, never refused. Schema 1 still: an older reader of schema 1
 *     skips a field it does not know, where a new schema number would make it refuse every newer chapter.
 */
public record ChapterManifest(int schema, String source, String titleId, String series, String chapterId,
    String number, String title, String language, String fingerprint, Instant publishedAt, List<Page> pages,
    AgeRating ageRating) {

  /** The schema this version writes. */
  public static final int SCHEMA = 1;

  /** The file's name in a chapter folder. */
  public static final String FILE = LibraryLayout.CHAPTER_JSON;

  private static final Pattern PAGE_FILE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * One page file.
   *
   * @param index 1-based position
   * @param file its file name in the chapter folder: a plain name, never a path
   * @param size bytes, -1 when unknown
   * @param sha256 hex SHA-256 of the bytes, empty when unknown
   */
  public record Page(int index, String file, long size, String sha256) {
  }

  /** Why a {@code chapter.json} is not a manifest: {@code reason} reads after "chapter.json ", e.g. "is not valid JSON". */
  public static final class InvalidException extends Exception {
    private final String reason;

    public InvalidException(String reason) {
      super("chapter.json " + reason);
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }
  }

  public ChapterManifest {
    source = text(source);
    titleId = text(titleId);
    series = text(series);
    chapterId = text(chapterId);
    number = text(number);
    title = text(title);
    language = language == null || language.isEmpty() ? "en" : language;
    pages = List.copyOf(pages);
    ageRating = ageRating == null ? AgeRating.UNRATED : ageRating;
  }

  /** A manifest of a chapter its source does not rate. */
  public ChapterManifest(int schema, String source, String titleId, String series, String chapterId, String number,
      String title, String language, String fingerprint, Instant publishedAt, List<Page> pages) {
    this(schema, source, titleId, series, chapterId, number, title, language, fingerprint, publishedAt, pages,
        AgeRating.UNRATED);
  }

  /** The level an {@code ageRating} value names: a rated code, else (absent, null, unknown) unrated. */
  static AgeRating ageRating(String code) {
    return code == null ? AgeRating.UNRATED : AgeRating.fromCode(code).orElse(AgeRating.UNRATED);
  }

  /** Whether it names this chapter of this title of this source (the identity publication compares). */
  public boolean names(String otherSource, String otherTitleId, String otherChapterId) {
    return source.equals(otherSource) && titleId.equals(otherTitleId) && chapterId.equals(otherChapterId);
  }

  /** Whether it names a source and a title id (a chapter a scraper published, not a hand-made one). */
  public boolean hasOrigin() {
    return !source.isEmpty() && !titleId.isEmpty();
  }

  /** {@code <source>/<titleId> chapter <chapterId>}, for messages about whose a folder is. */
  public String holder() {
    return source + "/" + titleId + " chapter " + chapterId;
  }

  /** Reads the {@code chapter.json} of a chapter folder; a missing file is a {@link java.nio.file.NoSuchFileException}. */
  public static ChapterManifest read(Path chapterFolder) throws IOException, InvalidException {
    return parse(Files.readAllBytes(chapterFolder.resolve(FILE)));
  }

  /**
   * Parses, validates and migrates {@code chapter.json} bytes. A manifest of the usual shape is read as a stream of
   * tokens without building a tree (a library scan reads 100,000 of them); anything else, and every file that is
   * refused, is judged by the tree reader ({@link #fromJson}), so both ways answer alike.
   */
  public static ChapterManifest parse(byte[] bytes) throws InvalidException {
    return parse(bytes, bytes.length);
  }

  /** {@link #parse(byte[])} of the first {@code length} bytes of {@code buffer} (a reused read buffer). */
  public static ChapterManifest parse(byte[] buffer, int length) throws InvalidException {
    ChapterManifest streamed = ManifestStream.read(MAPPER.getFactory(), buffer, length);
    return streamed != null ? streamed : parseTree(java.util.Arrays.copyOf(buffer, length));
  }

  /**
   * {@link #parse(byte[], int)} for a listing that keeps a chapter's card, not its pages: judged alike (what one
   * refuses the other refuses, with the same reason), but the pages' {@code sha256}, {@code chapterId},
   * {@code fingerprint} and {@code language} are left out (empty, null, "en") of a manifest of the usual shape, so a
   * library scan does not make 500,000 strings it drops (docs/benchmarks.md#what-a-scan-allocates). Never write or carry
   * what this returns.
   */
  public static ChapterManifest parseOutline(byte[] buffer, int length) throws InvalidException {
    ChapterManifest streamed = ManifestStream.read(MAPPER.getFactory(), buffer, length, true);
    return streamed != null ? streamed : parseTree(java.util.Arrays.copyOf(buffer, length));
  }

  /** {@link #parse} by way of a tree: every field read as {@link #fromJson} reads it. */
  static ChapterManifest parseTree(byte[] bytes) throws InvalidException {
    JsonNode json;
    try {
      json = MAPPER.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new InvalidException("is not valid JSON");
    } catch (IOException e) {
      throw new InvalidException("cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    return fromJson(json);
  }

  /** Validates and migrates a parsed {@code chapter.json} (or the manifest carried by an event). */
  public static ChapterManifest fromJson(JsonNode json) throws InvalidException {
    if (json == null || !json.isObject()) {
      throw new InvalidException("is not a JSON object");
    }
    JsonNode schemaNode = json.get("schema");
    int schema = schemaNode == null || schemaNode.isNull() ? 0 : schemaNode.asInt(-1);
    if (schema < 0 || schema > SCHEMA) {
      throw new InvalidException("has schema " + schemaNode + ", this version reads up to " + SCHEMA);
    }
    List<Page> pages = new ArrayList<>();
    for (JsonNode page : json.path("pages")) {
      String file = page.path("file").asText("");
      if (!PAGE_FILE.matcher(file).matches()) {
        throw new InvalidException("names an unusable page file");
      }
      pages.add(new Page(pages.size() + 1, file, page.path("size").asLong(-1), page.path("sha256").asText("")));
    }
    Instant published = null;
    try {
      JsonNode at = json.get(schema == 0 && json.has("published") ? "published" : "publishedAt");
      published = at == null || !at.isTextual() ? null : Instant.parse(at.asText());
    } catch (DateTimeParseException e) {
      // shown without a date
    }
    JsonNode fingerprint = json.get("fingerprint");
    // Schema 0 (files written before the schema number): numbers could be JSON numbers, no language was recorded.
    return new ChapterManifest(SCHEMA, json.path("source").asText(""), json.path("titleId").asText(""),
        json.path("series").asText(""), json.path("chapterId").asText(""), json.path("number").asText(""),
        json.path("title").asText(""), json.path("language").asText("en"),
        fingerprint == null || !fingerprint.isTextual() ? null : fingerprint.asText(), published, pages,
        ageRating(json.path("ageRating").isTextual() ? json.path("ageRating").asText() : null));
  }

  /**
   * The manifest as the JSON object written to disk and carried by {@code mc.library.published}, in plain maps and
   * lists (what a Vert.x {@code JsonObject} wraps as it is, so an event needs no text in between), fields in file order.
   */
  public Map<String, Object> toMap() {
    Map<String, Object> json = new LinkedHashMap<>(16);
    json.put("schema", SCHEMA);
    json.put("source", source);
    json.put("titleId", titleId);
    json.put("series", series);
    json.put("chapterId", chapterId);
    json.put("number", number);
    json.put("title", title);
    json.put("language", language);
    json.put("fingerprint", fingerprint);
    json.put("publishedAt", publishedAt == null ? null : publishedAt.toString());
    if (ageRating.rated()) {
      json.put("ageRating", ageRating.code());
    }
    List<Map<String, Object>> list = new ArrayList<>(pages.size());
    for (Page page : pages) {
      Map<String, Object> entry = new LinkedHashMap<>(8);
      entry.put("index", page.index());
      entry.put("file", page.file());
      entry.put("size", page.size());
      entry.put("sha256", page.sha256());
      list.add(entry);
    }
    json.put("pages", list);
    return json;
  }

  /** The {@code chapter.json} bytes (pretty-printed UTF-8). */
  public byte[] toBytes() {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(toMap());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a manifest always serialises", e);
    }
  }

  /** Writes {@code chapter.json} into a chapter (or staging) folder atomically. */
  public void write(Path chapterFolder) throws IOException {
    AtomicFiles.write(chapterFolder.resolve(FILE), toBytes());
  }

  /** The manifest as text, for logs and tests. */
  public String toJsonText() {
    return new String(toBytes(), StandardCharsets.UTF_8);
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }
}
