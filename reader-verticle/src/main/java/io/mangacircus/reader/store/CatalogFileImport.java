package io.mangacircus.reader.store;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.reader.store.CatalogStore.Catalog;
import io.mangacircus.reader.store.CatalogStore.Collection;
import io.mangacircus.reader.store.CatalogStore.Cover;
import io.mangacircus.reader.store.CatalogStore.SeriesMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the catalog the versions before the database kept in the data folder ({@code catalog.json} and
 * {@code collection-covers/}) into the reader's database, once: only into a database that holds no catalog yet, in
 * one transaction, after which the file is renamed {@code catalog.json.imported}. Deletes nothing: the covers folder
 * is left as it is. A file that does not parse is refused and left untouched.
 */
public final class CatalogFileImport {

  /** The file's name in the data folder. */
  public static final String FILE = "catalog.json";

  /** The covers' folder in the data folder. */
  public static final String COVERS = "collection-covers";

  /** What the file is renamed to once imported. */
  public static final String IMPORTED = FILE + ".imported";

  /** The newest file schema this version reads. */
  static final int SCHEMA = 1;

  private static final Logger LOG = LoggerFactory.getLogger(CatalogFileImport.class);

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** What happened to the data folder's catalog file. */
  public enum Outcome {
    /** There was no {@code catalog.json}. */
    NO_FILE,
    /** It was imported and renamed. */
    IMPORTED,
    /** The database already held a catalog (another reader's, or one imported before): the file was left. */
    LEFT
  }

  /** The file as the versions before the database wrote it. */
  record CatalogFile(int schema, Map<String, SeriesMeta> series, List<Collection> collections) {
    @JsonCreator
    CatalogFile(@JsonProperty(value = "schema", required = true) int schema,
        @JsonProperty("series") Map<String, SeriesMeta> series,
        @JsonProperty("collections") List<Collection> collections) {
      this.schema = schema;
      this.series = series == null ? Map.of() : series;
      this.collections = collections == null ? List.of() : collections;
    }
  }

  private CatalogFileImport() {
  }

  /**
   * Imports {@code dataDir}'s {@code catalog.json} into {@code store} when there is one and the store holds no catalog.
   * Blocking.
   *
   * @throws CorruptStateFileException when the file cannot be read or parsed, or has a newer schema (it is left as it
   *     is, and nothing is written)
   */
  public static Outcome importOnce(CatalogStore store, Path dataDir) throws StoreException {
    Path file = dataDir.resolve(FILE);
    if (!Files.exists(file)) {
      return Outcome.NO_FILE;
    }
    if (!store.catalog().isEmpty()) {
      return left(file);
    }
    CatalogFile read = read(file);
    Map<String, Cover> covers = covers(dataDir.resolve(COVERS), read.collections());
    List<Collection> collections = read.collections().stream()
        .map(c -> new Collection(c.id(), c.name(), c.series(), null)).toList();
    if (!store.importIfEmpty(new Catalog(read.series(), collections), covers)) {
      return left(file);
    }
    Path renamed = freeName(dataDir);
    try {
      DurableFiles.rename(file, renamed, false);
    } catch (IOException e) {
      LOG.warn("[CATALOG] {} is imported into the database but could not be renamed to {}: {}; it is not read again",
          file, renamed.getFileName(), e.toString());
      return Outcome.IMPORTED;
    }
    LOG.info("[CATALOG] imported {} ({} series, {} collections, {} covers) into the database; the file is now {}",
        file, read.series().size(), collections.size(), covers.size(), renamed.getFileName());
    return Outcome.IMPORTED;
  }

  private static Outcome left(Path file) {
    LOG.warn("[CATALOG] {} was not imported: the database already holds a catalog, which is the one served; the file "
        + "is left as it is", file);
    return Outcome.LEFT;
  }

  private static CatalogFile read(Path file) {
    CatalogFile read;
    try {
      read = MAPPER.readValue(Files.readAllBytes(file), CatalogFile.class);
    } catch (NoSuchFileException e) {
      throw new CorruptStateFileException(file, "cannot be read: it went away while the reader started");
    } catch (JsonProcessingException e) {
      throw new CorruptStateFileException(file, "is not a valid catalog: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    if (read.schema() > SCHEMA) {
      throw new CorruptStateFileException(file, "has schema " + read.schema() + ", newer than this version's "
          + SCHEMA);
    }
    return read;
  }

  /** The cover files the collections name; one missing or unreadable is logged and left out. */
  private static Map<String, Cover> covers(Path folder, List<Collection> collections) {
    Map<String, Cover> covers = new LinkedHashMap<>();
    for (Collection collection : collections) {
      String name = collection.cover();
      if (name == null) {
        continue;
      }
      String extension = name.substring(name.lastIndexOf('.') + 1);
      Path file = folder.resolve(name).normalize();
      if (!file.getParent().equals(folder.normalize()) || !(extension.equals("jpg") || extension.equals("png"))) {
        LOG.warn("[CATALOG] collection {} names the cover {}, which is not a jpg or png in {}; it is imported "
            + "without a cover", collection.id(), name, folder);
        continue;
      }
      try {
        covers.put(collection.id(), new Cover(Files.readAllBytes(file), extension));
      } catch (IOException e) {
        LOG.warn("[CATALOG] the cover {} of collection {} cannot be read ({}); it is imported without a cover", file,
            collection.id(), e.toString());
      }
    }
    return covers;
  }

  /** {@code catalog.json.imported}, or with a number after it when a file of that name is already there. */
  private static Path freeName(Path dataDir) {
    Path renamed = dataDir.resolve(IMPORTED);
    for (int n = 2; Files.exists(renamed); n++) {
      renamed = dataDir.resolve(IMPORTED + "." + n);
    }
    return renamed;
  }
}
