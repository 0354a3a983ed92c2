package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Users' tracker accounts (tokens sealed), their series linked to tracker entries, and the tracker outbox of updates
 * waiting to be delivered. Every change is durable when the call returns, so an update requested survives a
 * {@code kill -9}. Blocking: call it from a worker thread or {@code executeBlocking}, never from an event loop.
 */
public interface TrackerStore {

  /**
   * An outbox due time as stored (epoch milliseconds), rounded up so that an update is never tried before its due
   * time.
   */
  static long dueMillis(Instant instant) {
    long millis = instant.toEpochMilli();
    return Instant.ofEpochMilli(millis).isBefore(instant) ? millis + 1 : millis;
  }


  /** The user's sign-in on a tracker, if any. */
  Optional<TrackerAccount> account(long userId, String tracker) throws StoreException;

  /** The user's sign-ins, by tracker id. */
  List<TrackerAccount> accounts(long userId) throws StoreException;

  /** Saves a sign-in, replacing the user's earlier one on that tracker. */
  void saveAccount(TrackerAccount account) throws StoreException;

  /** Forgets the user's sign-in on a tracker (links and pending updates stay for a later sign-in); false when none. */
  boolean deleteAccount(long userId, String tracker) throws StoreException;

  /** The user's link of a series to a tracker, if any. */
  Optional<TrackerLink> link(long userId, String tracker, String series) throws StoreException;

  /** The user's links of a series, by tracker id. */
  List<TrackerLink> links(long userId, String series) throws StoreException;

  /** Every link of the user, by series then tracker. */
  List<TrackerLink> links(long userId) throws StoreException;

  /** Saves a link, replacing the user's earlier one of that series on that tracker. */
  void saveLink(TrackerLink link) throws StoreException;

  /** Removes a link and its pending update; false when there was none. */
  boolean deleteLink(long userId, String tracker, String series) throws StoreException;

  /**
   * Asks for an update of the user's series on a tracker. When one is already pending it stays one: its version is
   * raised and it keeps its due time if that is later than {@code due} (a pause the tracker asked for still holds).
   */
  void requestUpdate(long userId, String tracker, String series, Instant due, Instant now) throws StoreException;

  /** The pending update of a series, if any. */
  Optional<TrackerUpdate> pendingUpdate(long userId, String tracker, String series) throws StoreException;

  /** Pending updates due at {@code now} and not claimed by a delivery, earliest first, at most {@code max}. */
  List<TrackerUpdate> dueUpdates(Instant now, int max) throws StoreException;

  /**
   * Claims the pending updates due at {@code now} that no delivery holds, earliest first, at most {@code max}: each is
   * held until {@code until}, and no other claim (of this or another reader over the same database) gets it before
   * then, so several readers deliver it once. {@link #postpone} and {@link #delivered} release the claim; a claim
   * never released (a reader stopped mid-delivery) lapses at {@code until}.
   */
  List<TrackerUpdate> claimDue(Instant now, Instant until, int max) throws StoreException;

  /** When the earliest pending update is due (or its claim lapses); empty when none is pending. */
  Optional<Instant> nextDue() throws StoreException;

  /**
   * Puts a pending update off until {@code due}, recording the failed tries and what they met; releases its claim.
   */
  void postpone(long userId, String tracker, String series, Instant due, int attempts, String error)
      throws StoreException;

  /**
   * Removes a delivered update, unless it was requested again since ({@code version} older than the stored one): then
   * it stays pending with its attempts cleared and its claim released; true when removed.
   */
  boolean delivered(long userId, String tracker, String series, long version) throws StoreException;

  /**
   * Makes every pending update of the user on a tracker due at {@code now} (those due later are brought forward, as
   * after the user signed in again); the others are left as they are.
   */
  void releaseWaiting(long userId, String tracker, Instant now) throws StoreException;

  /** How many updates are pending, by tracker id (trackers with none left out). */
  Map<String, Integer> pendingByTracker() throws StoreException;
}
