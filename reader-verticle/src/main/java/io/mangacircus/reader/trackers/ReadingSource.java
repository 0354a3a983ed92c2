package io.mangacircus.reader.trackers;

import io.mangacircus.reader.store.StoreException;

/** The user's reading of a series as a tracker update sends it, read when the update goes out (blocking). */
@FunctionalInterface
public interface ReadingSource {

  /** The user's completed chapters of the series now; called from a worker thread, never an event loop. */
  SeriesReading reading(long userId, String series) throws StoreException;
}
