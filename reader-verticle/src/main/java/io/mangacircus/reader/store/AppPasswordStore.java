package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Users' app passwords: only their hash and {@code lookup}, the non-secret start that finds them, are stored; names
 * are unique per user. Blocking: call it from a worker thread or {@code executeBlocking}, never from an event loop.
 */
public interface AppPasswordStore {

  /**
   * Stores a new app password of a user.
   *
   * @param syncKey the verifier of its KOReader sync key ({@code AppPasswords} derives it), or null for none
   * @return its id, or empty when the user already has one by that name
   */
  Optional<Long> createAppPassword(long userId, String name, String lookup, String passwordHash, AppScope scope,
      String syncKey, Instant now) throws StoreException;

  /** A user's app passwords, oldest first. */
  List<AppPassword> appPasswords(long userId) throws StoreException;

  /** The app passwords of an account that is not disabled whose non-secret start is {@code lookup}. */
  List<AppPasswordCandidate> appPasswordCandidates(String username, String lookup) throws StoreException;

  /** The app passwords of every account that is not disabled whose non-secret start is {@code lookup}. */
  List<AppPasswordCandidate> appPasswordCandidates(String lookup) throws StoreException;

  /**
   * The app passwords whose KOReader sync-key verifier is {@code syncKey}, of the account {@code username} (any case)
   * when it is not disabled.
   */
  List<AppPasswordCandidate> appPasswordsBySyncKey(String username, String syncKey) throws StoreException;

  /** Records that an app password was just used. */
  void appPasswordUsed(long id, Instant now) throws StoreException;

  /** When a password reset last ended some of the user's app passwords, and how many; empty when none ever did. */
  Optional<AppPasswordsEnded> appPasswordsEnded(long userId) throws StoreException;

  /** Revokes one of a user's app passwords; false when the user has none by that id. */
  boolean deleteAppPassword(long userId, long id) throws StoreException;
}
