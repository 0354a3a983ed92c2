package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.SeriesMergeStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@link SeriesMergeStore} in the PostgreSQL reader database's {@code series_merges} table. */
public final class PgSeriesMergeStore implements SeriesMergeStore {

  private final PgDatabase database;

  public PgSeriesMergeStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public Map<String, String> merges() throws StoreException {
    // COLLATE "C": byte order, as SQLite orders text, whatever the database's locale.
    Map<String, String> merges = new LinkedHashMap<>();
    for (Row row : database.await(database.pool()
        .query("SELECT series, into_series FROM series_merges ORDER BY series COLLATE \"C\"").execute())) {
      merges.put(row.getString(0), row.getString(1));
    }
    return merges;
  }

  @Override
  public void merge(String series, String into, Instant at) throws StoreException {
    database.await(database.pool().preparedQuery(
        "INSERT INTO series_merges (series, into_series, merged_at) VALUES ($1, $2, $3)"
            + " ON CONFLICT (series) DO UPDATE SET into_series = excluded.into_series, merged_at = excluded.merged_at")
        .execute(Tuple.of(series, into, at.toString())));
  }

  @Override
  public boolean unmerge(String series) throws StoreException {
    return database.await(database.pool().preparedQuery("DELETE FROM series_merges WHERE series = $1")
        .execute(Tuple.of(series))).rowCount() > 0;
  }
}
