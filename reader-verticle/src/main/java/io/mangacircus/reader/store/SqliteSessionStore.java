package io.mangacircus.reader.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/** {@link SessionStore} in {@code reader.db}'s {@code sessions} table, joined with {@code users} when read. */
public final class SqliteSessionStore implements SessionStore {

  private final SqliteDatabase database;

  public SqliteSessionStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public void createSession(String tokenHash, long userId, String csrfToken, Instant now, Instant expiresAt)
      throws StoreException {
    database.call(connection -> {
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")) {
        insert.setString(1, tokenHash);
        insert.setLong(2, userId);
        insert.setString(3, csrfToken);
        insert.setString(4, now.toString());
        insert.setString(5, expiresAt.toString());
        insert.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Optional<Session> session(String tokenHash, Instant now) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT s.token_hash, u.id, u.username, u.role, s.csrf_token, s.expires_at FROM sessions s"
              + " JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND u.disabled = 0")) {
        query.setString(1, tokenHash);
        try (ResultSet row = query.executeQuery()) {
          if (!row.next()) {
            return Optional.empty();
          }
          Instant expires = Instant.parse(row.getString(6));
          if (!expires.isAfter(now)) {
            return Optional.empty();
          }
          return Optional.of(new Session(row.getString(1), row.getLong(2), row.getString(3), row.getString(4),
              row.getString(5), expires));
        }
      }
    });
  }

  @Override
  public void deleteSession(String tokenHash) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement delete = connection.prepareStatement("DELETE FROM sessions WHERE token_hash = ?")) {
        delete.setString(1, tokenHash);
        delete.executeUpdate();
      }
      return null;
    });
  }
}
