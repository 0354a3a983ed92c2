package io.mangacircus.reader.library.providers;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.reader.library.metadata.SeriesMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code data/series-metadata.json}: the metadata an admin applied from a provider, by series id. The reader is its only
 * writer; every change is written atomically; a file that fails to parse is reported and never overwritten (it is read
 * again before each change). Blocking: call it off the event loop.
 */
public final class ProviderMetadataStore {

  /** The schema this version writes. */
  public static final int SCHEMA = 1;
  public static final String FILE = "series-metadata.json";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * One series' applied metadata.
   *
   * @param provider the provider's name; @param id its id there; @param url its page there
   * @param appliedAt when the admin applied it, ISO-8601 UTC
   */
  public record Applied(String provider, String id, String url, String appliedAt, SeriesMetadata metadata) {
    @JsonCreator
    public Applied(@JsonProperty(value = "provider", required = true) String provider,
        @JsonProperty(value = "id", required = true) String id, @JsonProperty("url") String url,
        @JsonProperty("appliedAt") String appliedAt, @JsonProperty("metadata") SeriesMetadata metadata) {
      this.provider = provider;
      this.id = id;
      this.url = url;
      this.appliedAt = appliedAt;
      this.metadata = metadata == null ? SeriesMetadata.EMPTY : metadata;
    }
  }

  /** The whole file. */
  public record Contents(int schema, Map<String, Applied> series) {
    @JsonCreator
    public Contents(@JsonProperty(value = "schema", required = true) int schema,
        @JsonProperty("series") Map<String, Applied> series) {
      this.schema = schema;
      this.series = series == null ? Map.of() : Map.copyOf(series);
    }
  }

  private final Path file;
  /** The file's identity, size and modification time when {@link #readContents} was parsed from it. */
  private java.util.List<Object> readStamp;
  private Contents readContents;

  /** @param dataDir the data folder; the file is {@value #FILE} in it */
  public ProviderMetadataStore(Path dataDir) {
    this.file = dataDir.resolve(FILE);
  }

  public Path file() {
    return file;
  }

  /**
   * What the file holds (empty when there is none).
   *
   * @throws CorruptStateFileException when it cannot be read or parsed, or has a newer schema
   */
  public synchronized Contents read() {
    // The series answer asks for every page view: the file is parsed again only when it is another file (each write
    // renames a new one into place) or changed, never for each request.
    java.nio.file.attribute.BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return new Contents(SCHEMA, Map.of());
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    java.util.List<Object> stamp = java.util.Arrays.asList(attributes.fileKey(), attributes.size(),
        attributes.lastModifiedTime());
    if (stamp.equals(readStamp)) {
      return readContents;
    }
    Contents contents = parse();
    readStamp = stamp;
    readContents = contents;
    return contents;
  }

  private Contents parse() {
    Contents contents;
    try {
      contents = MAPPER.readValue(Files.readAllBytes(file), Contents.class);
    } catch (NoSuchFileException e) {
      return new Contents(SCHEMA, Map.of());
    } catch (JsonProcessingException e) {
      throw new CorruptStateFileException(file, "is not valid series metadata: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    if (contents.schema() > SCHEMA) {
      throw new CorruptStateFileException(file, "has schema " + contents.schema() + ", newer than this version's "
          + SCHEMA);
    }
    return contents;
  }

  /** One series' applied metadata, if any. */
  public synchronized Optional<Applied> series(String seriesId) {
    return Optional.ofNullable(read().series().get(seriesId));
  }

  /**
   * Stores a series' applied metadata, replacing what it had.
   *
   * @throws CorruptStateFileException when the file on disk cannot be parsed: it is left as it is
   */
  public synchronized Applied put(String seriesId, Applied applied) throws IOException {
    Map<String, Applied> series = new LinkedHashMap<>(read().series());
    series.put(seriesId, applied);
    AtomicFiles.write(file, MAPPER.writerWithDefaultPrettyPrinter()
        .writeValueAsBytes(new Contents(SCHEMA, new java.util.TreeMap<>(series))));
    return applied;
  }
}
