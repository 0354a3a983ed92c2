package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.ReadingSettings;
import io.mangacircus.reader.store.ReadingSettingsStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.util.Optional;

/** The ReadingSettings store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgReadingSettingsStore implements ReadingSettingsStore {

  public PgReadingSettingsStore(PgDatabase database) {
  }

  @Override
  public Optional<ReadingSettings> series(long userId, String series) throws StoreException {
    throw new UnsupportedOperationException("PgReadingSettingsStore is not written yet");
  }

  @Override
  public void saveSeries(long userId, String series, ReadingSettings settings, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgReadingSettingsStore is not written yet");
  }

  @Override
  public boolean deleteSeries(long userId, String series) throws StoreException {
    throw new UnsupportedOperationException("PgReadingSettingsStore is not written yet");
  }

  @Override
  public Optional<ReadingSettings> defaults(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgReadingSettingsStore is not written yet");
  }

  @Override
  public void saveDefaults(long userId, ReadingSettings settings, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgReadingSettingsStore is not written yet");
  }
}
