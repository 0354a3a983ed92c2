package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.SessionStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.util.Optional;

/** The Session store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgSessionStore implements SessionStore {

  public PgSessionStore(PgDatabase database) {
  }

  @Override
  public void createSession(String tokenHash, long userId, String csrfToken, Instant now, Instant expiresAt) throws StoreException {
    throw new UnsupportedOperationException("PgSessionStore is not written yet");
  }

  @Override
  public Optional<Session> session(String tokenHash, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgSessionStore is not written yet");
  }

  @Override
  public void deleteSession(String tokenHash) throws StoreException {
    throw new UnsupportedOperationException("PgSessionStore is not written yet");
  }
}
