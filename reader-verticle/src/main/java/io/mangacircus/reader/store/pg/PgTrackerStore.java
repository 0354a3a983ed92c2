package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.mangacircus.reader.store.TrackerUpdate;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Tracker store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgTrackerStore implements TrackerStore {

  public PgTrackerStore(PgDatabase database) {
  }

  @Override
  public Optional<TrackerAccount> account(long userId, String tracker) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public List<TrackerAccount> accounts(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public void saveAccount(TrackerAccount account) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public boolean deleteAccount(long userId, String tracker) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public Optional<TrackerLink> link(long userId, String tracker, String series) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public List<TrackerLink> links(long userId, String series) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public List<TrackerLink> links(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public void saveLink(TrackerLink link) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public boolean deleteLink(long userId, String tracker, String series) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public void requestUpdate(long userId, String tracker, String series, Instant due, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public Optional<TrackerUpdate> pendingUpdate(long userId, String tracker, String series) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public List<TrackerUpdate> dueUpdates(Instant now, int max) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public Optional<Instant> nextDue() throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public void postpone(long userId, String tracker, String series, Instant due, int attempts, String error) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public boolean delivered(long userId, String tracker, String series, long version) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public void releaseWaiting(long userId, String tracker, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }

  @Override
  public Map<String, Integer> pendingByTracker() throws StoreException {
    throw new UnsupportedOperationException("PgTrackerStore is not written yet");
  }
}
