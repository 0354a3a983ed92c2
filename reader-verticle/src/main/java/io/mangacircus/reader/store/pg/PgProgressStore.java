package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.LibraryVisit;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The Progress store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgProgressStore implements ProgressStore {

  public PgProgressStore(PgDatabase database) {
  }

  @Override
  public Optional<Progress> progress(long userId, String series) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public List<Progress> progress(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public void saveProgress(long userId, String series, String chapter, int page, boolean chapterFinished, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public void setRead(long userId, String series, String chapter, boolean read, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public void markRead(long userId, String series, java.util.Collection<String> chapters, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public void clearProgress(long userId, String series) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public Map<String, Instant> readTimes(long userId, String series) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public Set<String> readChapters(long userId, String series) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public Map<String, Set<String>> readChapters(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public Optional<LibraryVisit> libraryVisit(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }

  @Override
  public void saveLibraryVisit(long userId, LibraryVisit visit) throws StoreException {
    throw new UnsupportedOperationException("PgProgressStore is not written yet");
  }
}
