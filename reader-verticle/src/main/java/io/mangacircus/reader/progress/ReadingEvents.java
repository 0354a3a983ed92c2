package io.mangacircus.reader.progress;

import io.mangacircus.reader.store.LibraryVisit;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The progress store that says when a user finished chapters, whoever recorded it (the browser, OPDS page streaming,
 * the Komga API, KOReader sync, a read mark): after the store has saved it, on the same thread, so what listens is
 * told only of readings that are kept. A listener's failure is its own: the reading stays saved.
 */
public final class ReadingEvents implements ProgressStore {

  /** Told that a user finished one or more chapters of a series. Blocking is allowed: it runs on a worker. */
  @FunctionalInterface
  public interface Listener {
    void chaptersRead(long userId, String series) throws StoreException;
  }

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReadingEvents.class);

  private final ProgressStore store;
  private volatile Listener listener = (user, series) -> { };

  public ReadingEvents(ProgressStore store) {
    this.store = store;
  }

  /** Who is told from now on (one listener). */
  public void listen(Listener listener) {
    this.listener = listener;
  }

  private void told(long userId, String series) {
    try {
      listener.chaptersRead(userId, series);
    } catch (StoreException | RuntimeException e) {
      LOG.warn("[PROGRESS] reading of user {} in {} saved, but not passed on: {}", userId, series, e.toString());
    }
  }

  @Override
  public Optional<Progress> progress(long userId, String series) throws StoreException {
    return store.progress(userId, series);
  }

  @Override
  public List<Progress> progress(long userId) throws StoreException {
    return store.progress(userId);
  }

  @Override
  public void saveProgress(long userId, String series, String chapter, int page, boolean chapterFinished,
      Instant now) throws StoreException {
    store.saveProgress(userId, series, chapter, page, chapterFinished, now);
    if (chapterFinished) {
      told(userId, series);
    }
  }

  @Override
  public void setRead(long userId, String series, String chapter, boolean read, Instant now) throws StoreException {
    store.setRead(userId, series, chapter, read, now);
    if (read) {
      told(userId, series);
    }
  }

  @Override
  public void markRead(long userId, String series, Collection<String> chapters, Instant now) throws StoreException {
    store.markRead(userId, series, chapters, now);
    if (!chapters.isEmpty()) {
      told(userId, series);
    }
  }

  @Override
  public void clearProgress(long userId, String series) throws StoreException {
    store.clearProgress(userId, series);
  }

  @Override
  public Map<String, Instant> readTimes(long userId, String series) throws StoreException {
    return store.readTimes(userId, series);
  }

  @Override
  public Set<String> readChapters(long userId, String series) throws StoreException {
    return store.readChapters(userId, series);
  }

  @Override
  public Map<String, Set<String>> readChapters(long userId) throws StoreException {
    return store.readChapters(userId);
  }

  @Override
  public Optional<Reading> keptReading(long userId) {
    return store.keptReading(userId);
  }

  @Override
  public Optional<LibraryVisit> libraryVisit(long userId) throws StoreException {
    return store.libraryVisit(userId);
  }

  @Override
  public void saveLibraryVisit(long userId, LibraryVisit visit) throws StoreException {
    store.saveLibraryVisit(userId, visit);
  }
}
