package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Optional;

/**
 * Each user's reading settings: one per series they chose some for, and their defaults. Blocking: call it from a
 * worker thread or {@code executeBlocking}, never from an event loop.
 */
public interface ReadingSettingsStore {

  /** The series column of a user's defaults (no series id is empty). */
  String DEFAULTS = "";

  /** A series id as the stores take it: never the defaults' empty one. */
  static String requireSeries(String series) {
    if (series == null || series.isEmpty()) {
      throw new IllegalArgumentException("a series id is not empty");
    }
    return series;
  }


  /** The user's settings for a series, if they chose some. */
  Optional<ReadingSettings> series(long userId, String series) throws StoreException;

  /** Keeps the user's settings for a series (replacing any). */
  void saveSeries(long userId, String series, ReadingSettings settings, Instant now) throws StoreException;

  /** Forgets the user's settings for a series (back to their defaults); false when there were none. */
  boolean deleteSeries(long userId, String series) throws StoreException;

  /** The user's defaults, if they chose some. */
  Optional<ReadingSettings> defaults(long userId) throws StoreException;

  /** Keeps the user's defaults (replacing any). */
  void saveDefaults(long userId, ReadingSettings settings, Instant now) throws StoreException;
}
