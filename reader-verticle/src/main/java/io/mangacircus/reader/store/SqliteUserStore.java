package io.mangacircus.reader.store;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.access.UserAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link UserStore} in {@code reader.db}'s {@code users} table; a change ends the user's sessions in one step, a password
 * reset their app passwords too.
 */
public final class SqliteUserStore implements UserStore {

  private final SqliteDatabase database;

  public SqliteUserStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public long createUser(String username, String passwordHash, String role, Instant now) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO users (username, password_hash, role, created_at) VALUES (?, ?, ?, ?)",
          Statement.RETURN_GENERATED_KEYS)) {
        insert.setString(1, username);
        insert.setString(2, passwordHash);
        insert.setString(3, role);
        insert.setString(4, now.toString());
        insert.executeUpdate();
        try (ResultSet keys = insert.getGeneratedKeys()) {
          keys.next();
          return keys.getLong(1);
        }
      }
    });
  }

  @Override
  public Optional<User> user(String username) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT id, username, password_hash, role, disabled FROM users WHERE username = ?")) {
        query.setString(1, username);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new User(row.getLong(1), row.getString(2), row.getString(3),
              row.getString(4), row.getInt(5) != 0)) : Optional.empty();
        }
      }
    });
  }

  @Override
  public Optional<User> userById(long id) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT id, username, password_hash, role, disabled FROM users WHERE id = ?")) {
        query.setLong(1, id);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new User(row.getLong(1), row.getString(2), row.getString(3),
              row.getString(4), row.getInt(5) != 0)) : Optional.empty();
        }
      }
    });
  }

  @Override
  public long countAdmins() throws StoreException {
    return database.call(connection -> {
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery(
              "SELECT COUNT(*) FROM users WHERE role = 'admin' AND disabled = 0")) {
        return rows.next() ? rows.getLong(1) : 0L;
      }
    });
  }

  @Override
  public List<Account> accounts() throws StoreException {
    return database.call(connection -> {
      List<Account> accounts = new ArrayList<>();
      try (Statement statement = connection.createStatement();
          ResultSet row = statement.executeQuery(
              "SELECT username, role, disabled, created_at FROM users ORDER BY username COLLATE NOCASE")) {
        while (row.next()) {
          accounts.add(new Account(row.getString(1), row.getString(2), row.getInt(3) != 0,
              Instant.parse(row.getString(4))));
        }
      }
      return accounts;
    });
  }

  @Override
  public boolean setPassword(String username, String passwordHash, Instant now) throws StoreException {
    return database.transaction(connection -> {
      if (!updateUserAndEndSessions(connection, "UPDATE users SET password_hash = ? WHERE username = ?", passwordHash,
          username)) {
        return false;
      }
      // An app password stands for the account: whoever lost the account password may hold one too.
      try (PreparedStatement end = connection.prepareStatement(
          "DELETE FROM app_passwords WHERE user_id = (SELECT id FROM users WHERE username = ?)");
          PreparedStatement note = connection.prepareStatement(
              "UPDATE users SET app_passwords_ended_at = ?, app_passwords_ended = ? WHERE username = ?")) {
        end.setString(1, username);
        int ended = end.executeUpdate();
        if (ended > 0) {
          note.setString(1, now.toString());
          note.setInt(2, ended);
          note.setString(3, username);
          note.executeUpdate();
        }
      }
      return true;
    });
  }

  @Override
  public boolean changeOwnPassword(long userId, String passwordHash, String keptSessionHash) throws StoreException {
    return database.transaction(connection -> {
      try (PreparedStatement update = connection.prepareStatement("UPDATE users SET password_hash = ? WHERE id = ?");
          PreparedStatement end = connection.prepareStatement(
              "DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?")) {
        update.setString(1, passwordHash);
        update.setLong(2, userId);
        if (update.executeUpdate() != 1) {
          return false;
        }
        end.setLong(1, userId);
        end.setString(2, keptSessionHash);
        end.executeUpdate();
        return true;
      }
    });
  }

  @Override
  public boolean setDisabled(String username, boolean disabled) throws StoreException {
    return updateUserAndEndSessions("UPDATE users SET disabled = ? WHERE username = ?", disabled ? "1" : "0",
        username);
  }

  @Override
  public Optional<UserAccess> access(String username) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT access_libraries, age_limit, unrated_shown FROM users WHERE username = ?")) {
        query.setString(1, username);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(access(row, 1)) : Optional.empty();
        }
      }
    });
  }

  @Override
  public Map<String, UserAccess> accesses() throws StoreException {
    return database.call(connection -> {
      Map<String, UserAccess> accesses = new LinkedHashMap<>();
      try (Statement statement = connection.createStatement();
          ResultSet row = statement.executeQuery("SELECT username, access_libraries, age_limit, unrated_shown"
              + " FROM users ORDER BY username COLLATE NOCASE")) {
        while (row.next()) {
          accesses.put(row.getString(1), access(row, 2));
        }
      }
      return accesses;
    });
  }

  @Override
  public boolean setAccess(String username, UserAccess access) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement update = connection.prepareStatement(
          "UPDATE users SET access_libraries = ?, age_limit = ?, unrated_shown = ? WHERE username = ?")) {
        update.setString(1, access.allLibraries() ? null : String.join(",", access.libraries()));
        update.setString(2, access.ageLimit().text());
        update.setInt(3, access.ageLimit().unratedShown() ? 1 : 0);
        update.setString(4, username);
        return update.executeUpdate() == 1;
      }
    });
  }

  @Override
  public Optional<User> userByIdentity(String issuer, String subject) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT u.id, u.username, u.password_hash, u.role, u.disabled FROM user_identities i"
              + " JOIN users u ON u.id = i.user_id WHERE i.issuer = ? AND i.subject = ?")) {
        query.setString(1, issuer);
        query.setString(2, subject);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new User(row.getLong(1), row.getString(2), row.getString(3),
              row.getString(4), row.getInt(5) != 0)) : Optional.empty();
        }
      }
    });
  }

  @Override
  public long createUserWithIdentity(String username, String passwordHash, String role, UserAccess access,
      String issuer, String subject, Instant now) throws StoreException {
    return database.transaction(connection -> {
      long id;
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO users (username, password_hash, role, created_at, access_libraries, age_limit, unrated_shown)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
        insert.setString(1, username);
        insert.setString(2, passwordHash);
        insert.setString(3, role);
        insert.setString(4, now.toString());
        insert.setString(5, access.allLibraries() ? null : String.join(",", access.libraries()));
        insert.setString(6, access.ageLimit().text());
        insert.setInt(7, access.ageLimit().unratedShown() ? 1 : 0);
        insert.executeUpdate();
        try (ResultSet keys = insert.getGeneratedKeys()) {
          keys.next();
          id = keys.getLong(1);
        }
      }
      insertIdentity(connection, id, issuer, subject, now);
      return id;
    });
  }

  @Override
  public boolean linkIdentity(long userId, String issuer, String subject, Instant now) throws StoreException {
    return database.transaction(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT 1 FROM users u WHERE u.id = ? AND NOT EXISTS"
              + " (SELECT 1 FROM user_identities i WHERE i.issuer = ? AND i.subject = ?)")) {
        query.setLong(1, userId);
        query.setString(2, issuer);
        query.setString(3, subject);
        try (ResultSet row = query.executeQuery()) {
          if (!row.next()) {
            return false;
          }
        }
      }
      insertIdentity(connection, userId, issuer, subject, now);
      return true;
    });
  }

  private static void insertIdentity(java.sql.Connection connection, long userId, String issuer, String subject,
      Instant now) throws java.sql.SQLException {
    try (PreparedStatement link = connection.prepareStatement(
        "INSERT INTO user_identities (issuer, subject, user_id, linked_at) VALUES (?, ?, ?, ?)")) {
      link.setString(1, issuer);
      link.setString(2, subject);
      link.setLong(3, userId);
      link.setString(4, now.toString());
      link.executeUpdate();
    }
  }

  @Override
  public boolean setRole(long userId, String role) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement update = connection.prepareStatement("UPDATE users SET role = ? WHERE id = ?")) {
        update.setString(1, role);
        update.setLong(2, userId);
        return update.executeUpdate() == 1;
      }
    });
  }

  /** The access in the three columns from {@code first} on (libraries, age limit, unrated shown). */
  private static UserAccess access(ResultSet row, int first) throws java.sql.SQLException {
    String libraries = row.getString(first);
    String limitText = row.getString(first + 1);
    boolean unratedShown = row.getInt(first + 2) != 0;
    // The column's CHECK allows only codes AgeRating reads, so a missing rating means "none".
    AgeLimit limit = AgeRating.fromCode(limitText).filter(AgeRating::rated)
        .map(r -> AgeLimit.atMost(r).withUnratedShown(unratedShown)).orElse(AgeLimit.NONE);
    if (libraries == null) {
      return UserAccess.allLibraries(limit);
    }
    return UserAccess.only(libraries.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(libraries.split(","))), limit);
  }

  private boolean updateUserAndEndSessions(String sql, String value, String username) throws StoreException {
    return database.transaction(connection -> updateUserAndEndSessions(connection, sql, value, username));
  }

  private static boolean updateUserAndEndSessions(java.sql.Connection connection, String sql, String value,
      String username) throws java.sql.SQLException {
    try (PreparedStatement update = connection.prepareStatement(sql);
        PreparedStatement end = connection.prepareStatement(
            "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = ?)")) {
      update.setString(1, value);
      update.setString(2, username);
      boolean found = update.executeUpdate() == 1;
      end.setString(1, username);
      end.executeUpdate();
      return found;
    }
  }
}
