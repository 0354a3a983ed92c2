package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.SeriesMergeStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.util.Map;

/** The SeriesMerge store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgSeriesMergeStore implements SeriesMergeStore {

  public PgSeriesMergeStore(PgDatabase database) {
  }

  @Override
  public Map<String, String> merges() throws StoreException {
    throw new UnsupportedOperationException("PgSeriesMergeStore is not written yet");
  }

  @Override
  public void merge(String series, String into, Instant at) throws StoreException {
    throw new UnsupportedOperationException("PgSeriesMergeStore is not written yet");
  }

  @Override
  public boolean unmerge(String series) throws StoreException {
    throw new UnsupportedOperationException("PgSeriesMergeStore is not written yet");
  }
}
