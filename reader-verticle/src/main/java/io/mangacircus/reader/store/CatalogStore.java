package io.mangacircus.reader.store;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.mangacircus.contracts.rating.AgeRating;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog an admin edits: series metadata beyond the files, and collections with their cover images. Shared by
 * every reader of the database. Blocking: call it from a worker thread or {@code executeBlocking}, never from an event
 * loop.
 */
public interface CatalogStore {

  /**
   * What the catalog knows about a series beyond its files.
   *
   * @param ageRating the admin's age rating as an {@link AgeRating#code()}, null when the admin set none; it goes
   *     above the source's ({@link io.mangacircus.contracts.rating.SeriesRating#decide}). Left out of JSON when null,
   *     so a catalog without ratings stays readable by versions that know no ratings.
   */
  record SeriesMeta(String description, List<String> tags,
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

    /** Nothing set: what a series the admin never edited has. */
    public static SeriesMeta none() {
      return new SeriesMeta("", List.of());
    }

    /** The admin's age rating, if they set one. */
    public Optional<AgeRating> rating() {
      return ageRating == null ? Optional.empty() : AgeRating.fromCode(ageRating);
    }
  }

  /**
   * A named group of series.
   *
   * @param cover the cover's name ({@code <id>.<extension>}), null when the collection has none
   */
  record Collection(String id, String name, List<String> series, String cover) {
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

  /** The whole catalog: series metadata by series id, and the collections in the order they were made. */
  record Catalog(Map<String, SeriesMeta> series, List<Collection> collections) {
    public Catalog {
      series = Map.copyOf(series);
      collections = List.copyOf(collections);
    }

    /** No metadata and no collection. */
    public static Catalog empty() {
      return new Catalog(Map.of(), List.of());
    }

    public boolean isEmpty() {
      return series.isEmpty() && collections.isEmpty();
    }
  }

  /**
   * A collection's cover image, as validated when it was uploaded.
   *
   * @param extension {@code jpg} or {@code png}
   */
  record Cover(byte[] image, String extension) {
    public Cover {
      if (!extension.equals("jpg") && !extension.equals("png")) {
        throw new IllegalArgumentException("a cover is a jpg or a png, not " + extension);
      }
    }

    /** The name a collection's cover has: {@code <collection id>.<extension>}. */
    public static String name(String collection, String extension) {
      return collection + "." + extension;
    }
  }

  /** The whole catalog, without the cover images. */
  Catalog catalog() throws StoreException;

  /** The metadata of one series ({@link SeriesMeta#none()} when none was set). */
  SeriesMeta series(String seriesId) throws StoreException;

  /** A collection by id. */
  Optional<Collection> collection(String id) throws StoreException;

  /** Sets a series' metadata. */
  SeriesMeta putSeries(String seriesId, SeriesMeta meta) throws StoreException;

  /** Creates (as the last collection) or replaces (in its place, keeping its cover) a collection. */
  Collection putCollection(String id, String name, List<String> series) throws StoreException;

  /** Removes a collection and its cover; false when there was none. */
  boolean deleteCollection(String id) throws StoreException;

  /**
   * Stores a collection's cover in place of the one it had; empty when there is no such collection.
   *
   * @param image the bytes, already checked to be a whole image ({@link io.mangacircus.reader.catalog.CoverImage})
   */
  Optional<Collection> putCover(String id, byte[] image, String extension) throws StoreException;

  /** A collection's cover, if it has one. */
  Optional<Cover> cover(String id) throws StoreException;

  /**
   * Writes {@code catalog} and {@code covers} (by collection id) in one transaction when the store holds no catalog
   * yet; false, writing nothing, when it holds one (series metadata or a collection).
   */
  boolean importIfEmpty(Catalog catalog, Map<String, Cover> covers) throws StoreException;
}
