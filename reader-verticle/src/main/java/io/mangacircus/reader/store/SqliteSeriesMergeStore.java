package io.mangacircus.reader.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@link SeriesMergeStore} in {@code reader.db}'s {@code series_merges} table. */
public final class SqliteSeriesMergeStore implements SeriesMergeStore {

  private final SqliteDatabase database;

  public SqliteSeriesMergeStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public Map<String, String> merges() throws StoreException {
    return database.call(connection -> {
      Map<String, String> merges = new LinkedHashMap<>();
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT series, into_series FROM series_merges ORDER BY series");
          ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          merges.put(rows.getString(1), rows.getString(2));
        }
      }
      return merges;
    });
  }

  @Override
  public void merge(String series, String into, Instant at) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(
          "INSERT INTO series_merges (series, into_series, merged_at) VALUES (?, ?, ?)"
              + " ON CONFLICT (series) DO UPDATE SET into_series = excluded.into_series,"
              + " merged_at = excluded.merged_at")) {
        upsert.setString(1, series);
        upsert.setString(2, into);
        upsert.setString(3, at.toString());
        return upsert.executeUpdate();
      }
    });
  }

  @Override
  public boolean unmerge(String series) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement delete = connection.prepareStatement("DELETE FROM series_merges WHERE series = ?")) {
        delete.setString(1, series);
        return delete.executeUpdate() > 0;
      }
    });
  }
}
