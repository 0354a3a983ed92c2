package io.mangacircus.reader.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ProgressStore} that keeps each user's whole reading (every saved position, every chapter read) in memory
 * once read, for the lists that show it on every series of a page (the Komga API's series list under a reading app's
 * paging, the library's badges): without it each such request read the database behind its one connection's lock.
 * Every write of a user goes to the database first and then drops that user's kept reading; a read that overlapped a
 * write is answered but not kept (a per-user version, bumped by each write, must be unchanged across the read). Sound
 * while this process is the only writer of the database, as the reader is of {@code reader.db}. Blocking, as the store
 * it wraps.
 */
public final class CachedProgressStore extends KeepingProgressStore {

  /** Users whose reading is kept at most; past it the kept readings are dropped and read again as asked. */
  static final int MAX_USERS = 1_000;

  private final ConcurrentHashMap<Long, Reading> kept = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, AtomicLong> versions = new ConcurrentHashMap<>();

  public CachedProgressStore(ProgressStore store) {
    super(store);
  }

  @Override
  public Optional<Reading> keptReading(long userId) {
    return Optional.ofNullable(kept.get(userId));
  }

  /** The user's saved positions, newest first; kept. */
  @Override
  public List<Progress> progress(long userId) throws StoreException {
    return reading(userId).positions();
  }

  /** Every chapter the user has read, by series; kept. */
  @Override
  public Map<String, Set<String>> readChapters(long userId) throws StoreException {
    return reading(userId).read();
  }

  private Reading reading(long userId) throws StoreException {
    Reading known = kept.get(userId);
    if (known != null) {
      return known;
    }
    AtomicLong version = versions.computeIfAbsent(userId, id -> new AtomicLong());
    long before = version.get();
    Map<String, Set<String>> chapters = new java.util.HashMap<>();
    store.readChapters(userId).forEach((series, ids) -> chapters.put(series, Set.copyOf(ids)));
    Reading read = new Reading(List.copyOf(store.progress(userId)), Map.copyOf(chapters));
    if (version.get() == before) {
      if (kept.size() >= MAX_USERS) {
        kept.clear();
      }
      kept.put(userId, read);
      // A write between the check and the put bumped the version after it: drop what was just kept.
      if (version.get() != before) {
        kept.remove(userId, read);
      }
    }
    return read;
  }

  /** A write of the user's reading: what was kept of it is read again. */
  @Override
  protected void changed(long userId) {
    versions.computeIfAbsent(userId, id -> new AtomicLong()).incrementAndGet();
    kept.remove(userId);
  }
}
