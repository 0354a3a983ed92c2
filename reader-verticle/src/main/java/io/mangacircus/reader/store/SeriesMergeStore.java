package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Map;

/**
 * The admin's series merges (a merged series id and the id of the series it was merged into), kept across restarts
 * and rescans. Blocking: call it from a worker thread or {@code executeBlocking}, never from an event loop.
 */
public interface SeriesMergeStore {

  /** Every merge, merged series id to target id. */
  Map<String, String> merges() throws StoreException;

  /** Records that {@code series} is merged into {@code into} (replacing a merge of it into another). */
  void merge(String series, String into, Instant at) throws StoreException;

  /** Removes the merge of {@code series}; false when there was none. */
  boolean unmerge(String series) throws StoreException;
}
