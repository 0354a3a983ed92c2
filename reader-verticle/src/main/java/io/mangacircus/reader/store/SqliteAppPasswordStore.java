package io.mangacircus.reader.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link AppPasswordStore} in {@code reader.db}'s {@code app_passwords} table, found by its {@code lookup} index. */
public final class SqliteAppPasswordStore implements AppPasswordStore {

  private final SqliteDatabase database;

  public SqliteAppPasswordStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<Long> createAppPassword(long userId, String name, String lookup, String passwordHash,
      AppScope scope, String syncKey, Instant now) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT OR IGNORE INTO app_passwords (user_id, name, lookup, password_hash, created_at, scope, sync_key)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?)",
          Statement.RETURN_GENERATED_KEYS)) {
        insert.setLong(1, userId);
        insert.setString(2, name);
        insert.setString(3, lookup);
        insert.setString(4, passwordHash);
        insert.setString(5, now.toString());
        insert.setString(6, scope.wire());
        insert.setString(7, syncKey);
        if (insert.executeUpdate() == 0) {
          return Optional.empty();
        }
        try (ResultSet keys = insert.getGeneratedKeys()) {
          keys.next();
          return Optional.of(keys.getLong(1));
        }
      }
    });
  }

  @Override
  public List<AppPassword> appPasswords(long userId) throws StoreException {
    return database.call(connection -> {
      List<AppPassword> all = new ArrayList<>();
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT id, name, created_at, last_used_at, scope, sync_key IS NOT NULL FROM app_passwords"
              + " WHERE user_id = ? ORDER BY id")) {
        query.setLong(1, userId);
        try (ResultSet row = query.executeQuery()) {
          while (row.next()) {
            String used = row.getString(4);
            all.add(new AppPassword(row.getLong(1), row.getString(2), AppScope.stored(row.getString(5)),
                row.getBoolean(6), Instant.parse(row.getString(3)), used == null ? null : Instant.parse(used)));
          }
        }
      }
      return all;
    });
  }

  @Override
  public List<AppPasswordCandidate> appPasswordCandidates(String username, String lookup) throws StoreException {
    return candidates(" WHERE u.username = ? AND a.lookup = ? AND u.disabled = 0", username, lookup);
  }

  @Override
  public List<AppPasswordCandidate> appPasswordCandidates(String lookup) throws StoreException {
    return candidates(" WHERE a.lookup = ? AND u.disabled = 0", lookup);
  }

  @Override
  public List<AppPasswordCandidate> appPasswordsBySyncKey(String username, String syncKey) throws StoreException {
    // users.username compares without case (COLLATE NOCASE), as logins do.
    return candidates(" WHERE u.username = ? AND a.sync_key = ? AND u.disabled = 0", username, syncKey);
  }

  private List<AppPasswordCandidate> candidates(String where, String... values) throws StoreException {
    return database.call(connection -> {
      List<AppPasswordCandidate> all = new ArrayList<>();
      try (PreparedStatement query = connection.prepareStatement("SELECT a.id, u.id, u.username, u.role,"
          + " a.password_hash, a.scope FROM app_passwords a JOIN users u ON u.id = a.user_id" + where)) {
        for (int i = 0; i < values.length; i++) {
          query.setString(i + 1, values[i]);
        }
        try (ResultSet row = query.executeQuery()) {
          while (row.next()) {
            all.add(new AppPasswordCandidate(row.getLong(1), row.getLong(2), row.getString(3), row.getString(4),
                row.getString(5), AppScope.stored(row.getString(6))));
          }
        }
      }
      return all;
    });
  }

  @Override
  public void appPasswordUsed(long id, Instant now) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement update = connection.prepareStatement(
          "UPDATE app_passwords SET last_used_at = ? WHERE id = ?")) {
        update.setString(1, now.toString());
        update.setLong(2, id);
        update.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Optional<AppPasswordsEnded> appPasswordsEnded(long userId) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT app_passwords_ended_at, app_passwords_ended FROM users WHERE id = ?"
              + " AND app_passwords_ended_at IS NOT NULL")) {
        query.setLong(1, userId);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new AppPasswordsEnded(Instant.parse(row.getString(1)), row.getInt(2)))
              : Optional.empty();
        }
      }
    });
  }

  @Override
  public boolean deleteAppPassword(long userId, long id) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement delete = connection.prepareStatement(
          "DELETE FROM app_passwords WHERE user_id = ? AND id = ?")) {
        delete.setLong(1, userId);
        delete.setLong(2, id);
        return delete.executeUpdate() == 1;
      }
    });
  }
}
