package io.mangacircus.reader.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link CatalogStore} in {@code reader.db}'s {@code catalog_series}, {@code catalog_collections} and covers tables. */
public final class SqliteCatalogStore implements CatalogStore {

  private static final String COLLECTIONS = "SELECT c.id, c.name, c.series, v.extension FROM catalog_collections c"
      + " LEFT JOIN catalog_covers v ON v.collection = c.id";

  private final SqliteDatabase database;

  public SqliteCatalogStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public Catalog catalog() throws StoreException {
    return database.call(connection -> {
      Map<String, SeriesMeta> series = new LinkedHashMap<>();
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT series, description, tags, age_rating FROM catalog_series ORDER BY series");
          ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          series.put(rows.getString(1), meta(rows));
        }
      }
      List<Collection> collections = new ArrayList<>();
      try (PreparedStatement query = connection.prepareStatement(COLLECTIONS + " ORDER BY c.position");
          ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          collections.add(collection(rows));
        }
      }
      return new Catalog(series, collections);
    });
  }

  @Override
  public SeriesMeta series(String seriesId) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT series, description, tags, age_rating FROM catalog_series WHERE series = ?")) {
        query.setString(1, seriesId);
        try (ResultSet rows = query.executeQuery()) {
          return rows.next() ? meta(rows) : SeriesMeta.none();
        }
      }
    });
  }

  @Override
  public Optional<Collection> collection(String id) throws StoreException {
    return database.call(connection -> collection(connection, id));
  }

  @Override
  public SeriesMeta putSeries(String seriesId, SeriesMeta meta) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(
          "INSERT INTO catalog_series (series, description, tags, age_rating) VALUES (?, ?, ?, ?) ON CONFLICT (series)"
              + " DO UPDATE SET description = excluded.description, tags = excluded.tags,"
              + " age_rating = excluded.age_rating")) {
        insertSeries(upsert, seriesId, meta);
        return upsert.executeUpdate();
      }
    });
    return meta;
  }

  @Override
  public Collection putCollection(String id, String name, List<String> series) throws StoreException {
    return database.transaction(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(
          "INSERT INTO catalog_collections (id, name, series, position) VALUES (?, ?, ?,"
              + " (SELECT COALESCE(MAX(position), 0) + 1 FROM catalog_collections)) ON CONFLICT (id)"
              + " DO UPDATE SET name = excluded.name, series = excluded.series")) {
        upsert.setString(1, id);
        upsert.setString(2, name);
        upsert.setString(3, CatalogColumns.list(series));
        upsert.executeUpdate();
      }
      return collection(connection, id).orElseThrow();
    });
  }

  @Override
  public boolean deleteCollection(String id) throws StoreException {
    // Its cover goes with it (ON DELETE CASCADE).
    return database.call(connection -> {
      try (PreparedStatement delete = connection.prepareStatement("DELETE FROM catalog_collections WHERE id = ?")) {
        delete.setString(1, id);
        return delete.executeUpdate() > 0;
      }
    });
  }

  @Override
  public Optional<Collection> putCover(String id, byte[] image, String extension) throws StoreException {
    Cover cover = new Cover(image, extension);
    return database.transaction(connection -> {
      if (collection(connection, id).isEmpty()) {
        return Optional.empty();
      }
      insertCover(connection, id, cover, true);
      return collection(connection, id);
    });
  }

  @Override
  public Optional<Cover> cover(String id) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT image, extension FROM catalog_covers WHERE collection = ?")) {
        query.setString(1, id);
        try (ResultSet rows = query.executeQuery()) {
          return rows.next() ? Optional.of(new Cover(rows.getBytes(1), rows.getString(2))) : Optional.empty();
        }
      }
    });
  }

  @Override
  public boolean importIfEmpty(Catalog catalog, Map<String, Cover> covers) throws StoreException {
    return database.transaction(connection -> {
      try (PreparedStatement query = connection.prepareStatement("SELECT EXISTS (SELECT 1 FROM catalog_series)"
          + " OR EXISTS (SELECT 1 FROM catalog_collections)");
          ResultSet rows = query.executeQuery()) {
        if (rows.next() && rows.getBoolean(1)) {
          return false;
        }
      }
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO catalog_series (series, description, tags, age_rating) VALUES (?, ?, ?, ?)")) {
        for (Map.Entry<String, SeriesMeta> entry : catalog.series().entrySet()) {
          insertSeries(insert, entry.getKey(), entry.getValue());
          insert.executeUpdate();
        }
      }
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO catalog_collections (id, name, series, position) VALUES (?, ?, ?, ?)")) {
        int position = 0;
        for (Collection collection : catalog.collections()) {
          insert.setString(1, collection.id());
          insert.setString(2, collection.name());
          insert.setString(3, CatalogColumns.list(collection.series()));
          insert.setLong(4, ++position);
          insert.executeUpdate();
        }
      }
      for (Map.Entry<String, Cover> cover : covers.entrySet()) {
        insertCover(connection, cover.getKey(), cover.getValue(), false);
      }
      return true;
    });
  }

  private static void insertSeries(PreparedStatement insert, String seriesId, SeriesMeta meta) throws SQLException {
    insert.setString(1, seriesId);
    insert.setString(2, meta.description());
    insert.setString(3, CatalogColumns.list(meta.tags()));
    insert.setString(4, meta.ageRating());
  }

  private static void insertCover(Connection connection, String id, Cover cover, boolean replace)
      throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO catalog_covers (collection, extension, image) VALUES (?, ?, ?)" + (replace
            ? " ON CONFLICT (collection) DO UPDATE SET extension = excluded.extension, image = excluded.image" : ""))) {
      insert.setString(1, id);
      insert.setString(2, cover.extension());
      insert.setBytes(3, cover.image());
      insert.executeUpdate();
    }
  }

  private static Optional<Collection> collection(Connection connection, String id) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(COLLECTIONS + " WHERE c.id = ?")) {
      query.setString(1, id);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next() ? Optional.of(collection(rows)) : Optional.empty();
      }
    }
  }

  private static SeriesMeta meta(ResultSet rows) throws SQLException {
    return new SeriesMeta(rows.getString(2), list(rows.getString(3)), rows.getString(4));
  }

  private static Collection collection(ResultSet rows) throws SQLException {
    String extension = rows.getString(4);
    return new Collection(rows.getString(1), rows.getString(2), list(rows.getString(3)),
        extension == null ? null : Cover.name(rows.getString(1), extension));
  }

  private static List<String> list(String column) throws SQLException {
    try {
      return CatalogColumns.list(column);
    } catch (StoreException e) {
      throw new SQLException(e.getMessage(), e);
    }
  }
}
