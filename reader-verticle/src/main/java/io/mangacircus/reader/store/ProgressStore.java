package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What each user has read: one saved position per series, the chapters marked read, and when the user last opened the
 * library (for its "New" badges). Blocking: call it from a worker thread or {@code executeBlocking}, never from an
 * event loop.
 */
public interface ProgressStore {

  /** The user's saved position in a series. */
  Optional<Progress> progress(long userId, String series) throws StoreException;

  /** The user's saved positions, newest first. */
  List<Progress> progress(long userId) throws StoreException;

  /**
   * Saves the user's position in a series (one per series) and, when {@code chapterFinished}, marks the chapter read,
   * in one step.
   */
  void saveProgress(long userId, String series, String chapter, int page, boolean chapterFinished, Instant now)
      throws StoreException;

  /** Marks a chapter read or unread for a user; marking it read again keeps the first time. */
  void setRead(long userId, String series, String chapter, boolean read, Instant now) throws StoreException;

  /** Marks chapters of a series read for a user in one step; a chapter read before keeps its first time. */
  void markRead(long userId, String series, java.util.Collection<String> chapters, Instant now)
      throws StoreException;

  /** Forgets the user's saved position in a series, if any. */
  void clearProgress(long userId, String series) throws StoreException;

  /** The chapters of a series the user has read, with when each was first read. */
  Map<String, Instant> readTimes(long userId, String series) throws StoreException;

  /** The chapters of a series the user has read. */
  Set<String> readChapters(long userId, String series) throws StoreException;

  /** Every chapter the user has read, by series. */
  Map<String, Set<String>> readChapters(long userId) throws StoreException;

  /**
   * The user's whole reading (every saved position, newest first, and every chapter read) when this store can give it
   * without blocking, from memory; empty when it must be read ({@link #progress(long)}, {@link #readChapters(long)}).
   * Safe on an event loop.
   */
  default java.util.Optional<Reading> keptReading(long userId) {
    return java.util.Optional.empty();
  }

  /** A user's whole reading: saved positions, newest first, and the chapters read by series. */
  record Reading(List<Progress> positions, Map<String, Set<String>> read) {
  }

  /** The user's last library visit, if any. */
  Optional<LibraryVisit> libraryVisit(long userId) throws StoreException;

  /** Stores the user's library visit. */
  void saveLibraryVisit(long userId, LibraryVisit visit) throws StoreException;
}
