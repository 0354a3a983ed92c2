package io.mangacircus.reader.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/**
 * {@link ReadingSettingsStore} in {@code reader.db}'s {@code reading_settings} table, where a user's defaults are the
 * row whose series is empty (no series id is).
 */
public final class SqliteReadingSettingsStore implements ReadingSettingsStore {

  private final SqliteDatabase database;

  public SqliteReadingSettingsStore(SqliteDatabase database) {
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
    return database.call(connection -> {
      try (PreparedStatement delete = connection.prepareStatement(
          "DELETE FROM reading_settings WHERE user_id = ? AND series = ?")) {
        delete.setLong(1, userId);
        delete.setString(2, id);
        return delete.executeUpdate() == 1;
      }
    });
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
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT layout, direction, fit, page_offset, crop FROM reading_settings WHERE user_id = ? AND series = ?")) {
        query.setLong(1, userId);
        query.setString(2, series);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new ReadingSettings(row.getString(1), row.getString(2), row.getString(3),
              row.getInt(4) != 0, row.getInt(5) != 0)) : Optional.empty();
        }
      }
    });
  }

  private void save(long userId, String series, ReadingSettings settings, Instant now) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(
          "INSERT INTO reading_settings (user_id, series, layout, direction, fit, page_offset, crop, updated_at)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, series) DO UPDATE SET layout = excluded.layout,"
              + " direction = excluded.direction, fit = excluded.fit, page_offset = excluded.page_offset,"
              + " crop = excluded.crop, updated_at = excluded.updated_at")) {
        upsert.setLong(1, userId);
        upsert.setString(2, series);
        upsert.setString(3, settings.layout());
        upsert.setString(4, settings.direction());
        upsert.setString(5, settings.fit());
        upsert.setInt(6, settings.offset() ? 1 : 0);
        upsert.setInt(7, settings.crop() ? 1 : 0);
        upsert.setString(8, now.toString());
        upsert.executeUpdate();
      }
      return null;
    });
  }
}
