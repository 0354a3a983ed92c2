package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.SessionStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.Optional;

/** {@link SessionStore} in PostgreSQL's {@code sessions} table, joined with {@code users} when read. */
public final class PgSessionStore implements SessionStore {

  private final PgDatabase database;

  public PgSessionStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public void createSession(String tokenHash, long userId, String csrfToken, Instant now, Instant expiresAt)
      throws StoreException {
    database.await(database.pool().preparedQuery(
        "INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
        .execute(Tuple.of(tokenHash, userId, csrfToken, now.toString(), expiresAt.toString())));
  }

  @Override
  public Optional<Session> session(String tokenHash, Instant now) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT s.token_hash, u.id, u.username, u.role, s.csrf_token, s.expires_at FROM sessions s"
            + " JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND u.disabled = 0")
        .execute(Tuple.of(tokenHash))
        .map(rows -> {
          for (Row row : rows) {
            Instant expires = Instant.parse(row.getString(5));
            return expires.isAfter(now) ? Optional.of(new Session(row.getString(0), row.getLong(1),
                row.getString(2), row.getString(3), row.getString(4), expires)) : Optional.<Session>empty();
          }
          return Optional.<Session>empty();
        }));
  }

  @Override
  public void deleteSession(String tokenHash) throws StoreException {
    database.await(database.pool().preparedQuery("DELETE FROM sessions WHERE token_hash = $1")
        .execute(Tuple.of(tokenHash)));
  }
}
