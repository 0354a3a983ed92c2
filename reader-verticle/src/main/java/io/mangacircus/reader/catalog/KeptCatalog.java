package io.mangacircus.reader.catalog;

import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.store.CatalogStore.Catalog;
import io.mangacircus.reader.store.CatalogStore.Collection;
import io.mangacircus.reader.store.CatalogStore.Cover;
import io.mangacircus.reader.store.CatalogStore.SeriesMeta;
import io.mangacircus.reader.store.StoreException;
import java.util.List;
import java.util.Optional;

/**
 * The catalog as this reader serves it: a copy of the database's, kept in memory because the library lists ask it
 * about every series they show. Changes go to the database first, then the copy is read again; a change another reader
 * made is read again when that reader announces it ({@link #reload}). Reads never block; changes and covers do.
 */
public final class KeptCatalog {

  private final CatalogStore store;
  private volatile Catalog catalog;
  private volatile Runnable changed = () -> { };

  private KeptCatalog(CatalogStore store, Catalog catalog) {
    this.store = store;
    this.catalog = catalog;
  }

  /** The catalog {@code store} holds, read now. Blocking. */
  public static KeptCatalog load(CatalogStore store) throws StoreException {
    return new KeptCatalog(store, store.catalog());
  }

  /** Who is told after each change made through this copy (the other readers, so that they read it again). */
  public void tell(Runnable changed) {
    this.changed = changed;
  }

  /** The catalog as it is now. */
  public Catalog catalog() {
    return catalog;
  }

  /** The metadata of one series ({@link SeriesMeta#none()} when none was set). */
  public SeriesMeta series(String seriesId) {
    return catalog.series().getOrDefault(seriesId, SeriesMeta.none());
  }

  /** A collection by id. */
  public Optional<Collection> collection(String id) {
    return catalog.collections().stream().filter(c -> c.id().equals(id)).findFirst();
  }

  /** Sets a series' metadata. Blocking. */
  public SeriesMeta putSeries(String seriesId, SeriesMeta meta) throws StoreException {
    return changed(store.putSeries(seriesId, meta));
  }

  /** Creates or replaces a collection (its cover is kept). Blocking. */
  public Collection putCollection(String id, String name, List<String> series) throws StoreException {
    return changed(store.putCollection(id, name, series));
  }

  /** Removes a collection and its cover; false when there was none. Blocking. */
  public boolean deleteCollection(String id) throws StoreException {
    return store.deleteCollection(id) && changed(true);
  }

  /** Stores a (validated) cover image for a collection; empty when there is no such collection. Blocking. */
  public Optional<Collection> putCover(String id, byte[] image, String extension) throws StoreException {
    Optional<Collection> saved = store.putCover(id, image, extension);
    return saved.isEmpty() ? saved : changed(saved);
  }

  /** A collection's cover image, read from the database (covers are not kept in memory). Blocking. */
  public Optional<Cover> cover(String id) throws StoreException {
    return store.cover(id);
  }

  /** Reads the catalog from the database again (another reader changed it). Blocking. */
  public synchronized void reload() throws StoreException {
    catalog = store.catalog();
  }

  private <T> T changed(T result) throws StoreException {
    reload();
    changed.run();
    return result;
  }
}
