package io.mangacircus.contracts.library;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The {@code .mangacircus-source-metadata.json} of a series folder: what the title's source says about the series
 * (summary, authors, genres, links...), written by the scraper, read by the reader beside the books' ComicInfo.xml.
 * Schema 1; a newer schema, a file that is not a JSON object of this shape, or one larger than {@link #MAX_BYTES} is
 * refused with a reason. A missing value is null for a single value and an empty list for a list, never a blank text.
 *
 * @param schema always {@link #SCHEMA} once read
 * @param source the source's name
 * @param titleId the source's title id
 * @param title the title as the source names it, or null
 * @param summary its description (the English one where the source has several), line breaks kept, or null
 * @param authors who made it, in the source's order
 * @param genres the source's genres (MangaDex: tags of the {@code genre} group)
 * @param tags its other tags (MangaDex: the {@code theme}, {@code format} and {@code content} groups)
 * @param status the source's publication status as it spells it ("ongoing", "completed", "hiatus", "cancelled"), or null
 * @param year the year it started, or null
 * @param originalLanguage the language it was first published in (a language code), or null
 * @param links pages about it on other sites, with the site's own id of the title
 */
public record SourceSeriesMetadata(int schema, String source, String titleId, String title, String summary,
    List<Author> authors, List<String> genres, List<String> tags, String status, Integer year,
    String originalLanguage, List<Link> links) {

  /** The schema this version writes. */
  public static final int SCHEMA = 1;

  /** The file's name in a series folder. */
  public static final String FILE = LibraryLayout.SOURCE_METADATA;

  /** The largest file read: descriptions are a few kilobytes, so anything far larger is not ours. */
  public static final int MAX_BYTES = 1024 * 1024;

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  public SourceSeriesMetadata {
    source = Objects.requireNonNullElse(source, "");
    titleId = Objects.requireNonNullElse(titleId, "");
    title = blankToNull(title);
    summary = blankToNull(summary);
    status = blankToNull(status);
    originalLanguage = blankToNull(originalLanguage);
    authors = authors == null ? List.of() : List.copyOf(authors);
    genres = genres == null ? List.of() : genres.stream().filter(t -> t != null && !t.isBlank()).toList();
    tags = tags == null ? List.of() : tags.stream().filter(t -> t != null && !t.isBlank()).toList();
    links = links == null ? List.of() : List.copyOf(links);
  }

  /**
   * A person and what they did.
   *
   * @param name their name as the source writes it
   * @param role {@code writer} (MangaDex's author) or {@code penciller} (MangaDex's artist), Komga's role names
   */
  public record Author(String name, String role) {
    public Author {
      Objects.requireNonNull(blankToNull(name), "an author needs a name");
      Objects.requireNonNull(blankToNull(role), "an author needs a role");
    }
  }

  /**
   * A page about the title on another site.
   *
   * @param site which site: {@code anilist}, {@code myanimelist}, {@code mangaupdates}, {@code kitsu},
   *     {@code animeplanet}, {@code novelupdates}, {@code bookwalker}, {@code amazon}, {@code ebookjapan},
   *     {@code cdjapan}, {@code raw} (the original publisher's), {@code official-english}
   * @param id the site's own id or slug of the title as the source gave it (trackers look titles up by it)
   * @param url the page, http or https
   */
  public record Link(String site, String id, String url) {
    public Link {
      Objects.requireNonNull(blankToNull(site), "a link needs a site");
      Objects.requireNonNull(url, "a link needs a url");
      if (!url.startsWith("https://") && !url.startsWith("http://")) {
        throw new IllegalArgumentException("not an http(s) link: " + url);
      }
    }
  }

  /** Why a file is not a source metadata file: {@code reason} says what is wrong with it. */
  public static final class InvalidException extends Exception {
    public InvalidException(String reason) {
      super(FILE + " " + reason);
    }
  }

  /** The file of a series folder; {@link java.nio.file.NoSuchFileException} when it has none. */
  public static SourceSeriesMetadata read(Path seriesFolder) throws IOException, InvalidException {
    Path file = seriesFolder.resolve(FILE);
    if (Files.size(file) > MAX_BYTES) {
      throw new InvalidException("is larger than " + MAX_BYTES + " bytes");
    }
    return parse(Files.readAllBytes(file));
  }

  /** The file's content. */
  public static SourceSeriesMetadata parse(byte[] bytes) throws InvalidException {
    JsonNode json;
    try {
      json = MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new InvalidException("is not valid JSON");
    }
    if (json == null || !json.isObject()) {
      throw new InvalidException("is not a JSON object");
    }
    if (!json.path("schema").canConvertToInt() || json.path("schema").intValue() != SCHEMA) {
      throw new InvalidException("has schema " + json.path("schema") + "; this version reads schema " + SCHEMA);
    }
    try {
      return MAPPER.treeToValue(json, SourceSeriesMetadata.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new InvalidException("does not have the expected fields (" + firstLine(e.getMessage()) + ")");
    }
  }

  /** Writes it into a series folder atomically (a reader sees the old file or the new one, never a part). */
  public void write(Path seriesFolder) throws IOException {
    AtomicFiles.write(seriesFolder.resolve(FILE), bytes());
  }

  /** The file's content as written. */
  public byte[] bytes() throws JsonProcessingException {
    return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(this);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unknown";
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }
}
