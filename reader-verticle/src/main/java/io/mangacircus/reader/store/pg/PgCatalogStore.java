package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.CatalogColumns;
import io.mangacircus.reader.store.CatalogStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link CatalogStore} in the PostgreSQL reader database's {@code catalog_*} tables. */
public final class PgCatalogStore implements CatalogStore {

  private static final String COLLECTIONS = "SELECT c.id, c.name, c.series, v.extension FROM catalog_collections c"
      + " LEFT JOIN catalog_covers v ON v.collection = c.id";

  private final PgDatabase database;

  public PgCatalogStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public Catalog catalog() throws StoreException {
    // COLLATE "C": byte order, as SQLite orders text, whatever the database's locale.
    Map<String, SeriesMeta> series = new LinkedHashMap<>();
    for (Row row : database.await(database.pool().query("SELECT series, description, tags, age_rating"
        + " FROM catalog_series ORDER BY series COLLATE \"C\"").execute())) {
      series.put(row.getString(0), meta(row));
    }
    List<Collection> collections = new ArrayList<>();
    for (Row row : database.await(database.pool().query(COLLECTIONS + " ORDER BY c.position, c.id COLLATE \"C\"")
        .execute())) {
      collections.add(collection(row));
    }
    return new Catalog(series, collections);
  }

  @Override
  public SeriesMeta series(String seriesId) throws StoreException {
    for (Row row : database.await(database.pool().preparedQuery("SELECT series, description, tags, age_rating"
        + " FROM catalog_series WHERE series = $1").execute(Tuple.of(seriesId)))) {
      return meta(row);
    }
    return SeriesMeta.none();
  }

  @Override
  public Optional<Collection> collection(String id) throws StoreException {
    return first(database.await(selectCollection(database.pool(), id)));
  }

  @Override
  public SeriesMeta putSeries(String seriesId, SeriesMeta meta) throws StoreException {
    database.await(database.pool().preparedQuery("INSERT INTO catalog_series (series, description, tags, age_rating)"
        + " VALUES ($1, $2, $3, $4) ON CONFLICT (series) DO UPDATE SET description = excluded.description,"
        + " tags = excluded.tags, age_rating = excluded.age_rating").execute(seriesRow(seriesId, meta)));
    return meta;
  }

  @Override
  public Collection putCollection(String id, String name, List<String> series) throws StoreException {
    return first(database.transaction(c -> c.preparedQuery("INSERT INTO catalog_collections (id, name, series,"
        + " position) VALUES ($1, $2, $3, (SELECT COALESCE(MAX(position), 0) + 1 FROM catalog_collections))"
        + " ON CONFLICT (id) DO UPDATE SET name = excluded.name, series = excluded.series")
        .execute(Tuple.of(id, name, CatalogColumns.list(series)))
        .compose(saved -> selectCollection(c, id)))).orElseThrow();
  }

  @Override
  public boolean deleteCollection(String id) throws StoreException {
    // Its cover goes with it (ON DELETE CASCADE).
    return database.await(database.pool().preparedQuery("DELETE FROM catalog_collections WHERE id = $1")
        .execute(Tuple.of(id))).rowCount() > 0;
  }

  @Override
  public Optional<Collection> putCover(String id, byte[] image, String extension) throws StoreException {
    Cover cover = new Cover(image, extension);
    // The insert finds the collection or inserts nothing; the row is locked until the commit.
    return first(database.transaction(c -> c.preparedQuery("INSERT INTO catalog_covers (collection, extension, image)"
        + " SELECT id, $2, $3 FROM catalog_collections WHERE id = $1 ON CONFLICT (collection)"
        + " DO UPDATE SET extension = excluded.extension, image = excluded.image")
        .execute(Tuple.of(id, cover.extension(), Buffer.buffer(cover.image())))
        .compose(saved -> selectCollection(c, id))));
  }

  @Override
  public Optional<Cover> cover(String id) throws StoreException {
    for (Row row : database.await(database.pool().preparedQuery("SELECT image, extension FROM catalog_covers"
        + " WHERE collection = $1").execute(Tuple.of(id)))) {
      return Optional.of(new Cover(row.getBuffer(0).getBytes(), row.getString(1)));
    }
    return Optional.empty();
  }

  @Override
  public boolean importIfEmpty(Catalog catalog, Map<String, Cover> covers) throws StoreException {
    List<Tuple> series = new ArrayList<>();
    catalog.series().forEach((id, meta) -> series.add(seriesRow(id, meta)));
    List<Tuple> collections = new ArrayList<>();
    for (Collection collection : catalog.collections()) {
      collections.add(Tuple.of(collection.id(), collection.name(), CatalogColumns.list(collection.series()),
          (long) collections.size() + 1));
    }
    List<Tuple> images = new ArrayList<>();
    covers.forEach((id, cover) -> images.add(Tuple.of(id, cover.extension(), Buffer.buffer(cover.image()))));
    // The lock makes readers that start together import one after the other: the second finds the first's catalog.
    return database.transaction(c -> c.query("LOCK TABLE catalog_series, catalog_collections IN SHARE ROW EXCLUSIVE"
        + " MODE").execute()
        .compose(locked -> c.query("SELECT EXISTS (SELECT 1 FROM catalog_series)"
            + " OR EXISTS (SELECT 1 FROM catalog_collections)").execute())
        .compose(held -> held.iterator().next().getBoolean(0) ? Future.succeededFuture(false)
            : batch(c, "INSERT INTO catalog_series (series, description, tags, age_rating) VALUES ($1, $2, $3, $4)",
                series)
                .compose(v -> batch(c, "INSERT INTO catalog_collections (id, name, series, position)"
                    + " VALUES ($1, $2, $3, $4)", collections))
                .compose(v -> batch(c, "INSERT INTO catalog_covers (collection, extension, image)"
                    + " VALUES ($1, $2, $3)", images))
                .map(true)));
  }

  private static Future<Void> batch(SqlConnection c, String sql, List<Tuple> rows) {
    return rows.isEmpty() ? Future.succeededFuture() : c.preparedQuery(sql).executeBatch(rows).mapEmpty();
  }

  private static Future<RowSet<Row>> selectCollection(SqlClient client, String id) {
    return client.preparedQuery(COLLECTIONS + " WHERE c.id = $1").execute(Tuple.of(id));
  }

  private static Tuple seriesRow(String seriesId, SeriesMeta meta) {
    return Tuple.of(seriesId, meta.description(), CatalogColumns.list(meta.tags()), meta.ageRating());
  }

  private static Optional<Collection> first(RowSet<Row> rows) throws StoreException {
    for (Row row : rows) {
      return Optional.of(collection(row));
    }
    return Optional.empty();
  }

  private static SeriesMeta meta(Row row) throws StoreException {
    return new SeriesMeta(row.getString(1), CatalogColumns.list(row.getString(2)), row.getString(3));
  }

  private static Collection collection(Row row) throws StoreException {
    String extension = row.getString(3);
    return new Collection(row.getString(0), row.getString(1), CatalogColumns.list(row.getString(2)),
        extension == null ? null : Cover.name(row.getString(0), extension));
  }
}
