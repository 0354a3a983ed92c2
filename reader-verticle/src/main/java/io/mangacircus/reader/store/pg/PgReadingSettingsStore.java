package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.ReadingSettings;
import io.mangacircus.reader.store.ReadingSettingsStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.Optional;

/**
 * {@link ReadingSettingsStore} in the PostgreSQL reader database's {@code reading_settings} table, where a user's
 * defaults are the row whose series is empty (no series id is).
 */
public final class PgReadingSettingsStore implements ReadingSettingsStore {

  private final PgDatabase database;

  public PgReadingSettingsStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<ReadingSettings> series(long userId, String series) throws StoreException {
    return read(userId, ReadingSettingsStore.requireSeries(series));
  }

  @Override
  public void saveSeries(long userId, String series, ReadingSettings settings, Instant now) throws StoreException {
    save(userId, ReadingSettingsStore.requireSeries(series), settings, now);
  }

  @Override
  public boolean deleteSeries(long userId, String series) throws StoreException {
    String id = ReadingSettingsStore.requireSeries(series);
    return database.await(database.pool().preparedQuery(
        "DELETE FROM reading_settings WHERE user_id = $1 AND series = $2").execute(Tuple.of(userId, id)))
        .rowCount() == 1;
  }

  @Override
  public Optional<ReadingSettings> defaults(long userId) throws StoreException {
    return read(userId, DEFAULTS);
  }

  @Override
  public void saveDefaults(long userId, ReadingSettings settings, Instant now) throws StoreException {
    save(userId, DEFAULTS, settings, now);
  }

  private Optional<ReadingSettings> read(long userId, String series) throws StoreException {
    RowSet<Row> rows = database.await(database.pool().preparedQuery(
        "SELECT layout, direction, fit, page_offset, crop FROM reading_settings WHERE user_id = $1 AND series = $2")
        .execute(Tuple.of(userId, series)));
    if (rows.size() == 0) {
      return Optional.empty();
    }
    Row row = rows.iterator().next();
    return Optional.of(new ReadingSettings(row.getString(0), row.getString(1), row.getString(2),
        row.getInteger(3) != 0, row.getInteger(4) != 0));
  }

  private void save(long userId, String series, ReadingSettings settings, Instant now) throws StoreException {
    database.await(database.pool().preparedQuery(
        "INSERT INTO reading_settings (user_id, series, layout, direction, fit, page_offset, crop, updated_at)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (user_id, series) DO UPDATE SET"
            + " layout = excluded.layout, direction = excluded.direction, fit = excluded.fit,"
            + " page_offset = excluded.page_offset, crop = excluded.crop, updated_at = excluded.updated_at")
        .execute(Tuple.of(userId, series, settings.layout(), settings.direction(), settings.fit(),
            settings.offset() ? 1 : 0, settings.crop() ? 1 : 0, now.toString())));
  }
}
