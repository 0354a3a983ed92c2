package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link ProgressStore} that keeps some of what it reads from the one it wraps: every call is passed on, and after
 * each write of a user's reading (a failed one too: part of it may be saved) {@link #changed} is told that user, so
 * that what was kept of it is read again. Subclasses say what they keep by overriding the reads. Blocking, as the
 * store it wraps.
 */
abstract class KeepingProgressStore implements ProgressStore {

  protected final ProgressStore store;

  KeepingProgressStore(ProgressStore store) {
    this.store = store;
  }

  /** A write of the user's reading went to the store (or failed there). */
  protected abstract void changed(long userId);

  @Override
  public Optional<Progress> progress(long userId, String series) throws StoreException {
    return store.progress(userId, series);
  }

  @Override
  public List<Progress> progress(long userId) throws StoreException {
    return store.progress(userId);
  }

  @Override
  public Map<String, Set<String>> readChapters(long userId) throws StoreException {
    return store.readChapters(userId);
  }

  @Override
  public Set<String> readChapters(long userId, String series) throws StoreException {
    return store.readChapters(userId, series);
  }

  @Override
  public Map<String, Instant> readTimes(long userId, String series) throws StoreException {
    return store.readTimes(userId, series);
  }

  @Override
  public Optional<LibraryVisit> libraryVisit(long userId) throws StoreException {
    return store.libraryVisit(userId);
  }

  @Override
  public final void saveProgress(long userId, String series, String chapter, int page, boolean chapterFinished,
      Instant now) throws StoreException {
    try {
      store.saveProgress(userId, series, chapter, page, chapterFinished, now);
    } finally {
      changed(userId);
    }
  }

  @Override
  public final void setRead(long userId, String series, String chapter, boolean read, Instant now)
      throws StoreException {
    try {
      store.setRead(userId, series, chapter, read, now);
    } finally {
      changed(userId);
    }
  }

  @Override
  public final void markRead(long userId, String series, Collection<String> chapters, Instant now)
      throws StoreException {
    try {
      store.markRead(userId, series, chapters, now);
    } finally {
      changed(userId);
    }
  }

  @Override
  public final void clearProgress(long userId, String series) throws StoreException {
    try {
      store.clearProgress(userId, series);
    } finally {
      changed(userId);
    }
  }

  @Override
  public final void saveLibraryVisit(long userId, LibraryVisit visit) throws StoreException {
    try {
      store.saveLibraryVisit(userId, visit);
    } finally {
      changed(userId);
    }
  }
}
