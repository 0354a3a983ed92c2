package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.AppPassword;
import io.mangacircus.reader.store.AppPasswordCandidate;
import io.mangacircus.reader.store.AppPasswordStore;
import io.mangacircus.reader.store.AppPasswordsEnded;
import io.mangacircus.reader.store.AppScope;
import io.mangacircus.reader.store.StoreException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link AppPasswordStore} in PostgreSQL's {@code app_passwords} table, found by its {@code lookup} index. */
public final class PgAppPasswordStore implements AppPasswordStore {

  private final PgDatabase database;

  public PgAppPasswordStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<Long> createAppPassword(long userId, String name, String lookup, String passwordHash,
      AppScope scope, String syncKey, Instant now) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "INSERT INTO app_passwords (user_id, name, lookup, password_hash, created_at, scope, sync_key)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, name) DO NOTHING RETURNING id")
        .execute(Tuple.from(new Object[] {userId, name, lookup, passwordHash, now.toString(), scope.wire(), syncKey}))
        .map(rows -> {
          for (Row row : rows) {
            return Optional.of(row.getLong(0));
          }
          return Optional.<Long>empty();
        }));
  }

  @Override
  public List<AppPassword> appPasswords(long userId) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT id, name, created_at, last_used_at, scope, sync_key IS NOT NULL FROM app_passwords"
            + " WHERE user_id = $1 ORDER BY id")
        .execute(Tuple.of(userId))
        .map(rows -> {
          List<AppPassword> all = new ArrayList<>();
          for (Row row : rows) {
            String used = row.getString(3);
            all.add(new AppPassword(row.getLong(0), row.getString(1), AppScope.stored(row.getString(4)),
                row.getBoolean(5), Instant.parse(row.getString(2)), used == null ? null : Instant.parse(used)));
          }
          return all;
        }));
  }

  @Override
  public List<AppPasswordCandidate> appPasswordCandidates(String username, String lookup) throws StoreException {
    return candidates(" WHERE lower(u.username) = lower($1) AND a.lookup = $2 AND u.disabled = 0", username, lookup);
  }

  @Override
  public List<AppPasswordCandidate> appPasswordCandidates(String lookup) throws StoreException {
    return candidates(" WHERE a.lookup = $1 AND u.disabled = 0", lookup);
  }

  @Override
  public List<AppPasswordCandidate> appPasswordsBySyncKey(String username, String syncKey) throws StoreException {
    // User names compare without case, as logins do.
    return candidates(" WHERE lower(u.username) = lower($1) AND a.sync_key = $2 AND u.disabled = 0", username,
        syncKey);
  }

  private List<AppPasswordCandidate> candidates(String where, String... values) throws StoreException {
    return database.await(database.pool().preparedQuery("SELECT a.id, u.id, u.username, u.role, a.password_hash,"
        + " a.scope FROM app_passwords a JOIN users u ON u.id = a.user_id" + where + " ORDER BY a.id")
        .execute(Tuple.from(values))
        .map(rows -> {
          List<AppPasswordCandidate> all = new ArrayList<>();
          for (Row row : rows) {
            all.add(new AppPasswordCandidate(row.getLong(0), row.getLong(1), row.getString(2), row.getString(3),
                row.getString(4), AppScope.stored(row.getString(5))));
          }
          return all;
        }));
  }

  @Override
  public void appPasswordUsed(long id, Instant now) throws StoreException {
    database.await(database.pool().preparedQuery("UPDATE app_passwords SET last_used_at = $1 WHERE id = $2")
        .execute(Tuple.of(now.toString(), id)));
  }

  @Override
  public Optional<AppPasswordsEnded> appPasswordsEnded(long userId) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT app_passwords_ended_at, app_passwords_ended FROM users WHERE id = $1"
            + " AND app_passwords_ended_at IS NOT NULL")
        .execute(Tuple.of(userId))
        .map(rows -> {
          for (Row row : rows) {
            return Optional.of(new AppPasswordsEnded(Instant.parse(row.getString(0)), row.getInteger(1)));
          }
          return Optional.<AppPasswordsEnded>empty();
        }));
  }

  @Override
  public boolean deleteAppPassword(long userId, long id) throws StoreException {
    return database.await(database.pool().preparedQuery("DELETE FROM app_passwords WHERE user_id = $1 AND id = $2")
        .execute(Tuple.of(userId, id)).map(rows -> rows.rowCount() == 1));
  }
}
