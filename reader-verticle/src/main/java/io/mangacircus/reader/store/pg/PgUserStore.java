package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.store.Account;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The User store on PostgreSQL: not written on this branch yet, so every call fails. */
public final class PgUserStore implements UserStore {

  public PgUserStore(PgDatabase database) {
  }

  @Override
  public long createUser(String username, String passwordHash, String role, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public Optional<User> user(String username) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public Optional<User> userById(long id) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public long countAdmins() throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public List<Account> accounts() throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public boolean setPassword(String username, String passwordHash, Instant now) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public boolean changeOwnPassword(long userId, String passwordHash, String keptSessionHash) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public boolean setDisabled(String username, boolean disabled) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public Optional<UserAccess> access(String username) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public Map<String, UserAccess> accesses() throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }

  @Override
  public boolean setAccess(String username, UserAccess access) throws StoreException {
    throw new UnsupportedOperationException("PgUserStore is not written yet");
  }
}
