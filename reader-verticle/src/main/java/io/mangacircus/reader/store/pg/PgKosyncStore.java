package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.KosyncStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The Kosync store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgKosyncStore implements KosyncStore {

  public PgKosyncStore(PgDatabase database) {
  }

  @Override
  public void record(List<KosyncStore.Document> documents, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgKosyncStore is not written yet");
  }

  @Override
  public Optional<KosyncStore.Document> document(String document) throws StoreException {
    throw new UnsupportedOperationException("PgKosyncStore is not written yet");
  }

  @Override
  public Optional<Push> lastPush(long userId, String document) throws StoreException {
    throw new UnsupportedOperationException("PgKosyncStore is not written yet");
  }

  @Override
  public void savePush(long userId, Push push) throws StoreException {
    throw new UnsupportedOperationException("PgKosyncStore is not written yet");
  }
}
