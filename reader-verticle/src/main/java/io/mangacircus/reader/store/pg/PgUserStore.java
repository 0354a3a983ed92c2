package io.mangacircus.reader.store.pg;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.store.Account;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link UserStore} in PostgreSQL's {@code users} table: names compared and ordered as {@code lower(username)} (the
 * unique index), as SQLite's NOCASE does. A change ends the user's sessions in one transaction, a password reset their
 * app passwords too.
 */
public final class PgUserStore implements UserStore {

  /** Accounts in name order regardless of case, then by the name itself so that the order is total. */
  static final String BY_NAME = " ORDER BY lower(username) COLLATE \"C\", username COLLATE \"C\"";

  private static final String USER_COLUMNS = "SELECT id, username, password_hash, role, disabled FROM users";

  private final PgDatabase database;

  public PgUserStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public long createUser(String username, String passwordHash, String role, Instant now) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "INSERT INTO users (username, password_hash, role, created_at) VALUES ($1, $2, $3, $4) RETURNING id")
        .execute(Tuple.of(username, passwordHash, role, now.toString()))
        .map(rows -> rows.iterator().next().getLong(0)));
  }

  @Override
  public Optional<User> user(String username) throws StoreException {
    return database.await(database.pool().preparedQuery(USER_COLUMNS + " WHERE lower(username) = lower($1)")
        .execute(Tuple.of(username)).map(PgUserStore::firstUser));
  }

  @Override
  public Optional<User> userById(long id) throws StoreException {
    return database.await(database.pool().preparedQuery(USER_COLUMNS + " WHERE id = $1")
        .execute(Tuple.of(id)).map(PgUserStore::firstUser));
  }

  private static Optional<User> firstUser(RowSet<Row> rows) {
    for (Row row : rows) {
      return Optional.of(new User(row.getLong(0), row.getString(1), row.getString(2), row.getString(3),
          row.getInteger(4) != 0));
    }
    return Optional.empty();
  }

  @Override
  public long countAdmins() throws StoreException {
    return database.await(database.pool()
        .query("SELECT COUNT(*) FROM users WHERE role = 'admin' AND disabled = 0").execute()
        .map(rows -> rows.iterator().next().getLong(0)));
  }

  @Override
  public List<Account> accounts() throws StoreException {
    return database.await(database.pool()
        .query("SELECT username, role, disabled, created_at FROM users" + BY_NAME).execute()
        .map(rows -> {
          List<Account> accounts = new ArrayList<>();
          for (Row row : rows) {
            accounts.add(new Account(row.getString(0), row.getString(1), row.getInteger(2) != 0,
                Instant.parse(row.getString(3))));
          }
          return accounts;
        }));
  }

  @Override
  public boolean setPassword(String username, String passwordHash, Instant now) throws StoreException {
    return database.transaction(connection -> updateUserAndEndSessions(connection,
        "UPDATE users SET password_hash = $1 WHERE lower(username) = lower($2) RETURNING id", passwordHash, username)
        .compose(id -> {
          if (id.isEmpty()) {
            return Future.succeededFuture(false);
          }
          // An app password stands for the account: whoever lost the account password may hold one too.
          return connection.preparedQuery("DELETE FROM app_passwords WHERE user_id = $1")
              .execute(Tuple.of(id.get()))
              .compose(ended -> ended.rowCount() == 0 ? Future.succeededFuture(true)
                  : connection.preparedQuery(
                      "UPDATE users SET app_passwords_ended_at = $1, app_passwords_ended = $2 WHERE id = $3")
                      .execute(Tuple.of(now.toString(), ended.rowCount(), id.get()))
                      .map(noted -> true));
        }));
  }

  @Override
  public boolean changeOwnPassword(long userId, String passwordHash, String keptSessionHash) throws StoreException {
    return database.transaction(connection -> connection.preparedQuery(
        "UPDATE users SET password_hash = $1 WHERE id = $2").execute(Tuple.of(passwordHash, userId))
        .compose(updated -> updated.rowCount() != 1 ? Future.succeededFuture(false)
            : connection.preparedQuery("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
                .execute(Tuple.of(userId, keptSessionHash)).map(ended -> true)));
  }

  @Override
  public boolean setDisabled(String username, boolean disabled) throws StoreException {
    return database.transaction(connection -> updateUserAndEndSessions(connection,
        "UPDATE users SET disabled = $1 WHERE lower(username) = lower($2) RETURNING id", disabled ? 1 : 0, username)
        .map(Optional::isPresent));
  }

  /** Runs an update of one user (its SQL returns the user's id) and ends that user's sessions; the id if found. */
  private static Future<Optional<Long>> updateUserAndEndSessions(SqlConnection connection, String sql, Object value,
      String username) {
    return connection.preparedQuery(sql).execute(Tuple.of(value, username)).compose(rows -> {
      if (rows.rowCount() != 1) {
        return Future.succeededFuture(Optional.empty());
      }
      long id = rows.iterator().next().getLong(0);
      return connection.preparedQuery("DELETE FROM sessions WHERE user_id = $1").execute(Tuple.of(id))
          .map(ended -> Optional.of(id));
    });
  }

  @Override
  public Optional<UserAccess> access(String username) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT access_libraries, age_limit, unrated_shown FROM users WHERE lower(username) = lower($1)")
        .execute(Tuple.of(username))
        .map(rows -> {
          for (Row row : rows) {
            return Optional.of(access(row, 0));
          }
          return Optional.<UserAccess>empty();
        }));
  }

  @Override
  public Map<String, UserAccess> accesses() throws StoreException {
    return database.await(database.pool().query(
        "SELECT username, access_libraries, age_limit, unrated_shown FROM users" + BY_NAME).execute()
        .map(rows -> {
          Map<String, UserAccess> accesses = new LinkedHashMap<>();
          for (Row row : rows) {
            accesses.put(row.getString(0), access(row, 1));
          }
          return accesses;
        }));
  }

  @Override
  public boolean setAccess(String username, UserAccess access) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "UPDATE users SET access_libraries = $1, age_limit = $2, unrated_shown = $3 WHERE lower(username) = lower($4)")
        .execute(Tuple.of(access.allLibraries() ? null : String.join(",", access.libraries()),
            access.ageLimit().text(), access.ageLimit().unratedShown() ? 1 : 0, username))
        .map(rows -> rows.rowCount() == 1));
  }

  @Override
  public Optional<User> userByIdentity(String issuer, String subject) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT u.id, u.username, u.password_hash, u.role, u.disabled FROM user_identities i"
            + " JOIN users u ON u.id = i.user_id WHERE i.issuer = $1 AND i.subject = $2")
        .execute(Tuple.of(issuer, subject)).map(PgUserStore::firstUser));
  }

  @Override
  public long createUserWithIdentity(String username, String passwordHash, String role, UserAccess access,
      String issuer, String subject, Instant now) throws StoreException {
    return database.transaction(connection -> connection.preparedQuery(
        "INSERT INTO users (username, password_hash, role, created_at, access_libraries, age_limit, unrated_shown)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id")
        .execute(Tuple.of(username, passwordHash, role, now.toString(),
            access.allLibraries() ? null : String.join(",", access.libraries()), access.ageLimit().text(),
            access.ageLimit().unratedShown() ? 1 : 0))
        .map(rows -> rows.iterator().next().getLong(0))
        .compose(id -> insertIdentity(connection, id, issuer, subject, now).map(inserted -> id)));
  }

  @Override
  public boolean linkIdentity(long userId, String issuer, String subject, Instant now) throws StoreException {
    return database.transaction(connection -> connection.preparedQuery(
        "SELECT 1 FROM users u WHERE u.id = $1 AND NOT EXISTS"
            + " (SELECT 1 FROM user_identities i WHERE i.issuer = $2 AND i.subject = $3)")
        .execute(Tuple.of(userId, issuer, subject))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture(false)
            : insertIdentity(connection, userId, issuer, subject, now).map(inserted -> true)));
  }

  private static Future<RowSet<Row>> insertIdentity(SqlConnection connection, long userId, String issuer,
      String subject, Instant now) {
    return connection.preparedQuery(
        "INSERT INTO user_identities (issuer, subject, user_id, linked_at) VALUES ($1, $2, $3, $4)")
        .execute(Tuple.of(issuer, subject, userId, now.toString()));
  }

  @Override
  public boolean setRole(long userId, String role) throws StoreException {
    return database.await(database.pool().preparedQuery("UPDATE users SET role = $1 WHERE id = $2")
        .execute(Tuple.of(role, userId)).map(rows -> rows.rowCount() == 1));
  }

  /** The access in the three columns from {@code first} on (libraries, age limit, unrated shown). */
  private static UserAccess access(Row row, int first) {
    String libraries = row.getString(first);
    String limitText = row.getString(first + 1);
    boolean unratedShown = row.getInteger(first + 2) != 0;
    // The column's CHECK allows only codes AgeRating reads, so a missing rating means "none".
    AgeLimit limit = AgeRating.fromCode(limitText).filter(AgeRating::rated)
        .map(r -> AgeLimit.atMost(r).withUnratedShown(unratedShown)).orElse(AgeLimit.NONE);
    if (libraries == null) {
      return UserAccess.allLibraries(limit);
    }
    return UserAccess.only(libraries.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(libraries.split(","))), limit);
  }
}
