package io.mangacircus.reader.store;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * A {@link ProgressStore} over a database other readers write too: keeps what the library list asks on every page (a
 * user's read chapters, their last library visit) for at most {@link #MAX_AGE}, drops a user's at once when this
 * reader writes them (and tells who must pass that on, {@link #tell}) or another reader says it did
 * ({@link #forget}). Saved positions are always read from the database, so where a user stopped is never stale on any
 * reader. Unlike {@link CachedProgressStore} it gives no kept reading, which only a single writer may trust. Blocking,
 * as the store it wraps.
 */
public final class SharedProgressCache extends KeepingProgressStore {

  /** The longest a kept value is trusted, should another reader's notice of a change be lost. */
  public static final Duration MAX_AGE = Duration.ofSeconds(5);

  /** Users whose values are kept at most; past it they are dropped and read again as asked. */
  static final int MAX_USERS = 1_000;

  private record Kept<T>(T value, Instant at) {
  }

  private final InstantSource clock;
  private final ConcurrentHashMap<Long, Kept<Map<String, Set<String>>>> reads = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Kept<Optional<LibraryVisit>>> visits = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, AtomicLong> versions = new ConcurrentHashMap<>();
  private volatile LongConsumer told = user -> { };

  public SharedProgressCache(ProgressStore store, InstantSource clock) {
    super(store);
    this.clock = clock;
  }

  /** Who is told of each user whose reading this reader wrote (one listener), so that the other readers forget it. */
  public void tell(LongConsumer listener) {
    this.told = listener;
  }

  /** Another reader wrote this user's reading: what is kept of it is read again. */
  public void forget(long userId) {
    version(userId).incrementAndGet();
    reads.remove(userId);
    visits.remove(userId);
  }

  /** Every chapter the user has read, by series; kept. */
  @Override
  public Map<String, Set<String>> readChapters(long userId) throws StoreException {
    return kept(reads, userId, user -> {
      Map<String, Set<String>> copy = new java.util.HashMap<>();
      store.readChapters(user).forEach((series, ids) -> copy.put(series, Set.copyOf(ids)));
      return Map.copyOf(copy);
    });
  }

  /** The user's last library visit; kept. */
  @Override
  public Optional<LibraryVisit> libraryVisit(long userId) throws StoreException {
    return kept(visits, userId, store::libraryVisit);
  }

  /** A store read that may fail. */
  @FunctionalInterface
  private interface Read<T> {
    T of(long userId) throws StoreException;
  }

  /**
   * The kept value when it is young enough, else read; a read that overlapped a write (the user's version moved) is
   * answered but not kept.
   */
  private <T> T kept(ConcurrentHashMap<Long, Kept<T>> values, long userId, Read<T> read) throws StoreException {
    Instant now = clock.instant();
    Kept<T> known = values.get(userId);
    if (known != null && now.isBefore(known.at().plus(MAX_AGE))) {
      return known.value();
    }
    AtomicLong version = version(userId);
    long before = version.get();
    T value = read.of(userId);
    if (version.get() == before) {
      if (values.size() >= MAX_USERS) {
        values.clear();
      }
      Kept<T> fresh = new Kept<>(value, now);
      values.put(userId, fresh);
      // A write between the check and the put bumped the version after it: drop what was just kept.
      if (version.get() != before) {
        values.remove(userId, fresh);
      }
    }
    return value;
  }

  private AtomicLong version(long userId) {
    return versions.computeIfAbsent(userId, id -> new AtomicLong());
  }

  /** This reader wrote the user's reading: dropped here, and the other readers are told. */
  @Override
  protected void changed(long userId) {
    forget(userId);
    told.accept(userId);
  }
}
