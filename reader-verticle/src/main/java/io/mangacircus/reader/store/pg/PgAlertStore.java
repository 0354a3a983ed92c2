package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.AlertStore;
import io.mangacircus.reader.store.AlertTarget;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.Subscriber;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The Alert store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgAlertStore implements AlertStore {

  public PgAlertStore(PgDatabase database) {
  }

  @Override
  public Optional<AlertTarget> alertTarget(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgAlertStore is not written yet");
  }

  @Override
  public void saveAlertTarget(long userId, AlertTarget target, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgAlertStore is not written yet");
  }

  @Override
  public boolean deleteAlertTarget(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgAlertStore is not written yet");
  }

  @Override
  public void setSeriesAlert(long userId, String series, boolean on, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgAlertStore is not written yet");
  }

  @Override
  public boolean addSeriesAlert(long userId, String series, int max, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgAlertStore is not written yet");
  }

  @Override
  public List<String> seriesAlerts(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgAlertStore is not written yet");
  }

  @Override
  public List<Subscriber> subscribers(Collection<String> series) throws StoreException {
    throw new UnsupportedOperationException("PgAlertStore is not written yet");
  }
}
