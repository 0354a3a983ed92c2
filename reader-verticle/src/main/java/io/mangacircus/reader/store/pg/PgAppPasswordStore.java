package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.AppPassword;
import io.mangacircus.reader.store.AppPasswordCandidate;
import io.mangacircus.reader.store.AppPasswordStore;
import io.mangacircus.reader.store.AppPasswordsEnded;
import io.mangacircus.reader.store.AppScope;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The AppPassword store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgAppPasswordStore implements AppPasswordStore {

  public PgAppPasswordStore(PgDatabase database) {
  }

  @Override
  public Optional<Long> createAppPassword(long userId, String name, String lookup, String passwordHash, AppScope scope, String syncKey, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }

  @Override
  public List<AppPassword> appPasswords(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }

  @Override
  public List<AppPasswordCandidate> appPasswordCandidates(String username, String lookup) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }

  @Override
  public List<AppPasswordCandidate> appPasswordCandidates(String lookup) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }

  @Override
  public List<AppPasswordCandidate> appPasswordsBySyncKey(String username, String syncKey) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }

  @Override
  public void appPasswordUsed(long id, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }

  @Override
  public Optional<AppPasswordsEnded> appPasswordsEnded(long userId) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }

  @Override
  public boolean deleteAppPassword(long userId, long id) throws StoreException {
    throw new UnsupportedOperationException("PgAppPasswordStore is not written yet");
  }
}
