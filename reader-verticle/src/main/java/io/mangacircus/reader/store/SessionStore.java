package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Optional;

/**
 * Login sessions, stored by the hash of their token only. Blocking: call it from a worker thread or
 * {@code executeBlocking}, never from an event loop.
 */
public interface SessionStore {

  /** Stores a new session (only the hash of its token). */
  void createSession(String tokenHash, long userId, String csrfToken, Instant now, Instant expiresAt)
      throws StoreException;

  /** The live session for a token hash: not expired at {@code now}, its user not disabled. */
  Optional<Session> session(String tokenHash, Instant now) throws StoreException;

  /** Ends a session. */
  void deleteSession(String tokenHash) throws StoreException;
}
