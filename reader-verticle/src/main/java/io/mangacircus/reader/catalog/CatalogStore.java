package io.mangacircus.reader.catalog;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.LibraryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code data/catalog.json} and {@code data/collection-covers/}: series metadata and collections. The reader is its
 * only writer; every change is written atomically; a file that fails to parse is reported and never overwritten.
 * Blocking: call it off the event loop.
 */
public final class CatalogStore {

  /** The schema this version writes. */
  public static final int SCHEMA = 1;

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /**
   * What the catalog knows about a series beyond its files.
   *
   * @param ageRating the admin's age rating as an {@link AgeRating#code()}, null when the admin set none; it goes
   *     above the source's ({@link io.mangacircus.contracts.rating.SeriesRating#decide}). Left out of the file when
   *     null, so a catalog without ratings stays readable by versions that know no ratings.
   */
  public record SeriesMeta(String description, List<String> tags,
      @JsonInclude(JsonInclude.Include.NON_NULL) String ageRating) {
    /** @throws IllegalArgumentException when {@code ageRating} names no rating */
    @JsonCreator
    public SeriesMeta(@JsonProperty("description") String description, @JsonProperty("tags") List<String> tags,
        @JsonProperty("ageRating") String ageRating) {
      this.description = description == null ? "" : description;
      this.tags = tags == null ? List.of() : List.copyOf(tags);
      // Unrated is no rating: an admin who sets it lets the source's rating decide again.
      AgeRating rating = ageRating == null ? AgeRating.UNRATED : AgeRating.fromCode(ageRating).orElseThrow(
          () -> new IllegalArgumentException("a series' age rating is all, 9, 12, 15, 18 or unrated"));
      this.ageRating = rating.rated() ? rating.code() : null;
    }

    /** Metadata without an admin's age rating. */
    public SeriesMeta(String description, List<String> tags) {
      this(description, tags, null);
    }

    /** The admin's age rating, if they set one. */
    public Optional<AgeRating> rating() {
      return ageRating == null ? Optional.empty() : AgeRating.fromCode(ageRating);
    }
  }

  /** A named group of series, with an optional cover file in {@code collection-covers/}. */
  public record Collection(String id, String name, List<String> series, String cover) {
    @JsonCreator
    public Collection(@JsonProperty(value = "id", required = true) String id,
        @JsonProperty(value = "name", required = true) String name, @JsonProperty("series") List<String> series,
        @JsonProperty("cover") String cover) {
      this.id = id;
      this.name = name;
      this.series = series == null ? List.of() : List.copyOf(series);
      this.cover = cover;
    }
  }

  /** The whole file. */
  public record Catalog(int schema, Map<String, SeriesMeta> series, List<Collection> collections) {
    @JsonCreator
    public Catalog(@JsonProperty(value = "schema", required = true) int schema,
        @JsonProperty("series") Map<String, SeriesMeta> series,
        @JsonProperty("collections") List<Collection> collections) {
      this.schema = schema;
      this.series = series == null ? Map.of() : Map.copyOf(series);
      this.collections = collections == null ? List.of() : List.copyOf(collections);
    }
  }

  private final Path file;
  private final Path covers;
  private Catalog catalog;

  private CatalogStore(Path file, Path covers, Catalog catalog) {
    this.file = file;
    this.covers = covers;
    this.catalog = catalog;
  }

  /**
   * Reads {@code catalog.json} in {@code dataDir} (an empty catalog when there is none).
   *
   * @throws CorruptStateFileException when the file cannot be read or parsed, or has a newer schema
   */
  public static CatalogStore open(Path dataDir) {
    Path file = dataDir.resolve("catalog.json");
    Catalog catalog;
    try {
      catalog = MAPPER.readValue(Files.readAllBytes(file), Catalog.class);
    } catch (NoSuchFileException e) {
      catalog = new Catalog(SCHEMA, Map.of(), List.of());
    } catch (JsonProcessingException e) {
      throw new CorruptStateFileException(file, "is not a valid catalog: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    if (catalog.schema() > SCHEMA) {
      throw new CorruptStateFileException(file, "has schema " + catalog.schema() + ", newer than this version's "
          + SCHEMA);
    }
    return new CatalogStore(file, dataDir.resolve("collection-covers"), catalog);
  }

  /** The catalog as it is now. */
  public synchronized Catalog catalog() {
    return catalog;
  }

  /** The metadata of one series (empty when none was set). */
  public synchronized SeriesMeta series(String seriesId) {
    return catalog.series().getOrDefault(seriesId, new SeriesMeta("", List.of()));
  }

  /** Sets a series' metadata. */
  public synchronized SeriesMeta putSeries(String seriesId, SeriesMeta meta) throws IOException {
    Map<String, SeriesMeta> series = new LinkedHashMap<>(catalog.series());
    series.put(seriesId, meta);
    save(new Catalog(SCHEMA, series, catalog.collections()));
    return meta;
  }

  /** Creates or replaces a collection (its cover is kept). */
  public synchronized Collection putCollection(String id, String name, List<String> series) throws IOException {
    Collection updated = new Collection(id, name, series, collection(id).map(Collection::cover).orElse(null));
    save(new Catalog(SCHEMA, catalog.series(), replace(id, updated)));
    return updated;
  }

  /** Removes a collection and its cover; false when there was none. */
  public synchronized boolean deleteCollection(String id) throws IOException {
    Optional<Collection> existing = collection(id);
    if (existing.isEmpty()) {
      return false;
    }
    save(new Catalog(SCHEMA, catalog.series(), replace(id, null)));
    if (existing.get().cover() != null) {
      DurableFiles.delete(covers.resolve(existing.get().cover()));
    }
    return true;
  }

  /** Stores a (validated) cover image for a collection; empty when there is no such collection. */
  public synchronized Optional<Collection> putCover(String id, byte[] image, String extension) throws IOException {
    Optional<Collection> existing = collection(id);
    if (existing.isEmpty()) {
      return Optional.empty();
    }
    String name = id + "." + extension;
    AtomicFiles.write(covers.resolve(name), image);
    String previous = existing.get().cover();
    Collection updated = new Collection(id, existing.get().name(), existing.get().series(), name);
    save(new Catalog(SCHEMA, catalog.series(), replace(id, updated)));
    if (previous != null && !previous.equals(name)) {
      DurableFiles.delete(covers.resolve(previous));
    }
    return Optional.of(updated);
  }

  /** The cover file of a collection, if it has one. */
  public synchronized Optional<Path> coverFile(String id) {
    return collection(id).map(Collection::cover).filter(LibraryFiles::validId).map(covers::resolve)
        .filter(Files::isRegularFile);
  }

  /** A collection by id. */
  public synchronized Optional<Collection> collection(String id) {
    return catalog.collections().stream().filter(c -> c.id().equals(id)).findFirst();
  }

  private List<Collection> replace(String id, Collection replacement) {
    List<Collection> collections = new ArrayList<>();
    boolean replaced = false;
    for (Collection c : catalog.collections()) {
      if (c.id().equals(id)) {
        replaced = true;
        if (replacement != null) {
          collections.add(replacement);
        }
      } else {
        collections.add(c);
      }
    }
    if (!replaced && replacement != null) {
      collections.add(replacement);
    }
    return collections;
  }

  private void save(Catalog next) throws IOException {
    AtomicFiles.write(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(next));
    catalog = next;
  }
}
