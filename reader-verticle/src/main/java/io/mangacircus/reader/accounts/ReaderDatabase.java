package io.mangacircus.reader.accounts;

import io.mangacircus.contracts.CorruptStateFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code data/reader.db} (SQLite, WAL): users, sessions, app passwords, reading progress and new-chapter alerts, with
 * numbered schema migrations. Blocking JDBC: call it from a worker thread or {@code executeBlocking}, never from an
 * event loop. A file that is not a readable reader database is reported and never touched.
 */
public final class ReaderDatabase implements AutoCloseable {

  /** The schema this version creates and reads. */
  public static final int SCHEMA = 5;

  /** An account. */
  public record User(long id, String username, String passwordHash, String role, boolean disabled) {
  }

  /** An account as the users page lists it. */
  public record Account(String username, String role, boolean disabled, Instant createdAt) {
  }

  /** A user's saved position in a series. */
  public record Progress(String series, String chapter, int page, Instant updatedAt) {
  }

  /** An app password as its owner's profile lists it (never its secret or hash). */
  public record AppPassword(long id, String name, Instant createdAt, Instant lastUsedAt) {
  }

  /** An app password that may match an offered secret, joined with its user (not disabled). */
  public record AppPasswordCandidate(long id, long userId, String username, String role, String passwordHash) {
  }

  /** A live session joined with its user. */
  public record Session(String tokenHash, long userId, String username, String role, String csrfToken,
      Instant expiresAt) {
  }

  private static final List<String> MIGRATION_1 = List.of(
      "CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE,"
          + " password_hash TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('admin','reader')),"
          + " disabled INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL)",
      "CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id)"
          + " ON DELETE CASCADE, csrf_token TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL)",
      "CREATE TABLE progress (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, chapter TEXT NOT NULL, page INTEGER NOT NULL, updated_at TEXT NOT NULL,"
          + " PRIMARY KEY (user_id, series))");

  private static final List<String> MIGRATION_2 = List.of(
      "CREATE TABLE chapter_reads (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, chapter TEXT NOT NULL, read_at TEXT NOT NULL,"
          + " PRIMARY KEY (user_id, series, chapter))");

  private static final List<String> MIGRATION_3 = List.of(
      "CREATE TABLE app_passwords (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id)"
          + " ON DELETE CASCADE, name TEXT NOT NULL, lookup TEXT NOT NULL, password_hash TEXT NOT NULL,"
          + " created_at TEXT NOT NULL, last_used_at TEXT, UNIQUE (user_id, name))",
      "CREATE INDEX app_passwords_lookup ON app_passwords (lookup)");

  private static final List<String> MIGRATION_4 = List.of(
      "CREATE TABLE alert_targets (user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,"
          + " type TEXT NOT NULL CHECK (type IN ('ntfy','webhook')), url TEXT NOT NULL, topic TEXT NOT NULL,"
          + " token TEXT NOT NULL, updated_at TEXT NOT NULL)",
      "CREATE TABLE series_alerts (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
          + " series TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (user_id, series))",
      "CREATE INDEX series_alerts_series ON series_alerts (series)");

  /** Issue 16: when each user last opened the library, for its "New" badges. */
  private static final List<String> MIGRATION_5 = List.of(
      "CREATE TABLE library_visits (user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,"
          + " since TEXT, last_at TEXT NOT NULL)");

  /**
   * A user's library visit as stored.
   *
   * @param since chapters published after this are "new" during the visit (the end of the previous visit); null on
   *     the first visit
   * @param lastAt when the library was last opened
   */
  public record LibraryVisit(Instant since, Instant lastAt) {
  }

  /**
   * Where a user's new-chapter alerts go.
   *
   * @param type {@code ntfy} or {@code webhook}
   * @param url the ntfy server or the webhook URL
   * @param topic the ntfy topic (empty for a webhook)
   * @param token an ntfy access token or a webhook bearer token, or empty
   */
  public record AlertTarget(String type, String url, String topic, String token) {
    @Override
    public String toString() {
      return "AlertTarget[type=" + type + ", url=<set>, topic=" + (topic.isEmpty() ? "<none>" : "<set>") + ", token="
          + (token.isEmpty() ? "<none>" : "<set>") + "]";
    }
  }

  /** A user to alert, where, and which of the asked series they subscribed to. */
  public record Subscriber(String username, AlertTarget target, List<String> series) {
  }

  private final Path file;
  private final Connection connection;

  private ReaderDatabase(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /**
   * Opens (or creates) the database and migrates it forward.
   *
   * @throws CorruptStateFileException when the file is not a SQLite database or comes from a newer version
   */
  public static ReaderDatabase open(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
      ReaderDatabase database = new ReaderDatabase(file, connection);
      try {
        database.configureAndMigrate();
      } catch (SQLException | RuntimeException e) {
        connection.close();
        throw e;
      }
      return database;
    } catch (SQLException e) {
      throw new CorruptStateFileException(file, "is not a usable reader database: " + e.getMessage());
    } catch (java.io.IOException e) {
      throw new CorruptStateFileException(file, "cannot be created: " + e.getMessage());
    }
  }

  private void configureAndMigrate() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 5000");
      statement.execute("PRAGMA foreign_keys = ON");
      try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
        mode.next();
      }
      statement.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      int version;
      try (ResultSet rows = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
        version = rows.next() ? rows.getInt(1) : 0;
      }
      if (version > SCHEMA) {
        throw new CorruptStateFileException(file, "has schema " + version + ", newer than this version's " + SCHEMA);
      }
      if (version < 1) {
        migrate(statement, MIGRATION_1, 1);
      }
      if (version < 2) {
        migrate(statement, MIGRATION_2, 2);
      }
      if (version < 3) {
        migrate(statement, MIGRATION_3, 3);
      }
      if (version < 4) {
        migrate(statement, MIGRATION_4, 4);
      }
      if (version < 5) {
        migrate(statement, MIGRATION_5, 5);
      }
    }
  }

  private void migrate(Statement statement, List<String> steps, int to) throws SQLException {
    connection.setAutoCommit(false);
    try {
      for (String sql : steps) {
        statement.execute(sql);
      }
      statement.execute("INSERT INTO schema_version (version) VALUES (" + to + ")");
      connection.commit();
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  /** The schema version recorded in the file. */
  public synchronized int schemaVersion() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM schema_version")) {
      return rows.next() ? rows.getInt(1) : 0;
    }
  }

  /** Creates an account; returns its id. */
  public synchronized long createUser(String username, String passwordHash, String role, Instant now)
      throws SQLException {
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
  }

  /** The account with this name (case-insensitive). */
  public synchronized Optional<User> user(String username) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT id, username, password_hash, role, disabled FROM users WHERE username = ?")) {
      query.setString(1, username);
      try (ResultSet row = query.executeQuery()) {
        return row.next() ? Optional.of(new User(row.getLong(1), row.getString(2), row.getString(3),
            row.getString(4), row.getInt(5) != 0)) : Optional.empty();
      }
    }
  }

  /** Accounts with the admin role that are not disabled. */
  public synchronized long countAdmins() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM users WHERE role = 'admin' AND disabled = 0")) {
      return rows.next() ? rows.getLong(1) : 0;
    }
  }

  /** Stores a new session (only the hash of its token). */
  public synchronized void createSession(String tokenHash, long userId, String csrfToken, Instant now,
      Instant expiresAt) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")) {
      insert.setString(1, tokenHash);
      insert.setLong(2, userId);
      insert.setString(3, csrfToken);
      insert.setString(4, now.toString());
      insert.setString(5, expiresAt.toString());
      insert.executeUpdate();
    }
  }

  /** The live session for a token hash: not expired, its user not disabled. */
  public synchronized Optional<Session> session(String tokenHash, Instant now) throws SQLException {
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
  }

  /** Ends a session. */
  public synchronized void deleteSession(String tokenHash) throws SQLException {
    try (PreparedStatement delete = connection.prepareStatement("DELETE FROM sessions WHERE token_hash = ?")) {
      delete.setString(1, tokenHash);
      delete.executeUpdate();
    }
  }

  /** Every account, by name. */
  public synchronized List<Account> accounts() throws SQLException {
    List<Account> accounts = new java.util.ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(
            "SELECT username, role, disabled, created_at FROM users ORDER BY username COLLATE NOCASE")) {
      while (row.next()) {
        accounts.add(new Account(row.getString(1), row.getString(2), row.getInt(3) != 0,
            Instant.parse(row.getString(4))));
      }
    }
    return accounts;
  }

  /** Replaces a user's password hash and ends the user's sessions; false when there is no such user. */
  public synchronized boolean setPassword(String username, String passwordHash) throws SQLException {
    return updateUserAndEndSessions("UPDATE users SET password_hash = ? WHERE username = ?", passwordHash, username);
  }

  /** Disables or enables a user; disabling ends the user's sessions. False when there is no such user. */
  public synchronized boolean setDisabled(String username, boolean disabled) throws SQLException {
    return updateUserAndEndSessions("UPDATE users SET disabled = ? WHERE username = ?", disabled ? "1" : "0",
        username);
  }

  private boolean updateUserAndEndSessions(String sql, String value, String username) throws SQLException {
    connection.setAutoCommit(false);
    try (PreparedStatement update = connection.prepareStatement(sql);
        PreparedStatement end = connection.prepareStatement(
            "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = ?)")) {
      update.setString(1, value);
      update.setString(2, username);
      boolean found = update.executeUpdate() == 1;
      end.setString(1, username);
      end.executeUpdate();
      connection.commit();
      return found;
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  /** The user's saved position in a series. */
  public synchronized Optional<Progress> progress(long userId, String series) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT series, chapter, page, updated_at FROM progress WHERE user_id = ? AND series = ?")) {
      query.setLong(1, userId);
      query.setString(2, series);
      try (ResultSet row = query.executeQuery()) {
        return row.next() ? Optional.of(progressOf(row)) : Optional.empty();
      }
    }
  }

  /** The user's saved positions, newest first. */
  public synchronized List<Progress> progress(long userId) throws SQLException {
    List<Progress> all = new java.util.ArrayList<>();
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT series, chapter, page, updated_at FROM progress WHERE user_id = ? ORDER BY updated_at DESC")) {
      query.setLong(1, userId);
      try (ResultSet row = query.executeQuery()) {
        while (row.next()) {
          all.add(progressOf(row));
        }
      }
    }
    return all;
  }

  private static Progress progressOf(ResultSet row) throws SQLException {
    return new Progress(row.getString(1), row.getString(2), row.getInt(3), Instant.parse(row.getString(4)));
  }

  /**
   * Saves the user's position in a series (one per series) and, when {@code chapterFinished}, marks the chapter read,
   * in one transaction.
   */
  public synchronized void saveProgress(long userId, String series, String chapter, int page, boolean chapterFinished,
      Instant now) throws SQLException {
    connection.setAutoCommit(false);
    try (PreparedStatement upsert = connection.prepareStatement(
        "INSERT INTO progress (user_id, series, chapter, page, updated_at) VALUES (?, ?, ?, ?, ?)"
            + " ON CONFLICT (user_id, series) DO UPDATE SET chapter = excluded.chapter, page = excluded.page,"
            + " updated_at = excluded.updated_at")) {
      upsert.setLong(1, userId);
      upsert.setString(2, series);
      upsert.setString(3, chapter);
      upsert.setInt(4, page);
      upsert.setString(5, now.toString());
      upsert.executeUpdate();
      if (chapterFinished) {
        markRead(userId, series, chapter, now);
      }
      connection.commit();
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  /** Marks a chapter read or unread for a user. */
  public synchronized void setRead(long userId, String series, String chapter, boolean read, Instant now)
      throws SQLException {
    if (read) {
      markRead(userId, series, chapter, now);
      return;
    }
    try (PreparedStatement delete = connection.prepareStatement(
        "DELETE FROM chapter_reads WHERE user_id = ? AND series = ? AND chapter = ?")) {
      delete.setLong(1, userId);
      delete.setString(2, series);
      delete.setString(3, chapter);
      delete.executeUpdate();
    }
  }

  private void markRead(long userId, String series, String chapter, Instant now) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT OR IGNORE INTO chapter_reads (user_id, series, chapter, read_at) VALUES (?, ?, ?, ?)")) {
      insert.setLong(1, userId);
      insert.setString(2, series);
      insert.setString(3, chapter);
      insert.setString(4, now.toString());
      insert.executeUpdate();
    }
  }

  /** The chapters of a series the user has read. */
  public synchronized java.util.Set<String> readChapters(long userId, String series) throws SQLException {
    java.util.Set<String> read = new java.util.HashSet<>();
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT chapter FROM chapter_reads WHERE user_id = ? AND series = ?")) {
      query.setLong(1, userId);
      query.setString(2, series);
      try (ResultSet row = query.executeQuery()) {
        while (row.next()) {
          read.add(row.getString(1));
        }
      }
    }
    return read;
  }

  /** Every chapter the user has read, by series. */
  public synchronized java.util.Map<String, java.util.Set<String>> readChapters(long userId) throws SQLException {
    java.util.Map<String, java.util.Set<String>> read = new java.util.HashMap<>();
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT series, chapter FROM chapter_reads WHERE user_id = ?")) {
      query.setLong(1, userId);
      try (ResultSet row = query.executeQuery()) {
        while (row.next()) {
          read.computeIfAbsent(row.getString(1), s -> new java.util.HashSet<>()).add(row.getString(2));
        }
      }
    }
    return read;
  }

  /** The user's last library visit, if any. */
  public synchronized Optional<LibraryVisit> libraryVisit(long userId) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT since, last_at FROM library_visits WHERE user_id = ?")) {
      query.setLong(1, userId);
      try (ResultSet row = query.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        String since = row.getString(1);
        return Optional.of(new LibraryVisit(since == null ? null : Instant.parse(since),
            Instant.parse(row.getString(2))));
      }
    }
  }

  /** Stores the user's library visit. */
  public synchronized void saveLibraryVisit(long userId, LibraryVisit visit) throws SQLException {
    try (PreparedStatement upsert = connection.prepareStatement(
        "INSERT INTO library_visits (user_id, since, last_at) VALUES (?, ?, ?)"
            + " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since, last_at = excluded.last_at")) {
      upsert.setLong(1, userId);
      upsert.setString(2, visit.since() == null ? null : visit.since().toString());
      upsert.setString(3, visit.lastAt().toString());
      upsert.executeUpdate();
    }
  }

  /**
   * Stores a new app password of a user (only its hash, and {@code lookup}, the non-secret start that finds it).
   *
   * @return its id, or empty when the user already has one by that name
   */
  public synchronized Optional<Long> createAppPassword(long userId, String name, String lookup, String passwordHash,
      Instant now) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT OR IGNORE INTO app_passwords (user_id, name, lookup, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
        Statement.RETURN_GENERATED_KEYS)) {
      insert.setLong(1, userId);
      insert.setString(2, name);
      insert.setString(3, lookup);
      insert.setString(4, passwordHash);
      insert.setString(5, now.toString());
      if (insert.executeUpdate() == 0) {
        return Optional.empty();
      }
      try (ResultSet keys = insert.getGeneratedKeys()) {
        keys.next();
        return Optional.of(keys.getLong(1));
      }
    }
  }

  /** A user's app passwords, oldest first. */
  public synchronized List<AppPassword> appPasswords(long userId) throws SQLException {
    List<AppPassword> all = new java.util.ArrayList<>();
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT id, name, created_at, last_used_at FROM app_passwords WHERE user_id = ? ORDER BY id")) {
      query.setLong(1, userId);
      try (ResultSet row = query.executeQuery()) {
        while (row.next()) {
          String used = row.getString(4);
          all.add(new AppPassword(row.getLong(1), row.getString(2), Instant.parse(row.getString(3)),
              used == null ? null : Instant.parse(used)));
        }
      }
    }
    return all;
  }

  /** The app passwords of an account that is not disabled whose non-secret start is {@code lookup}. */
  public synchronized List<AppPasswordCandidate> appPasswordCandidates(String username, String lookup)
      throws SQLException {
    List<AppPasswordCandidate> all = new java.util.ArrayList<>();
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT a.id, u.id, u.username, u.role, a.password_hash FROM app_passwords a JOIN users u ON u.id = a.user_id"
            + " WHERE u.username = ? AND a.lookup = ? AND u.disabled = 0")) {
      query.setString(1, username);
      query.setString(2, lookup);
      try (ResultSet row = query.executeQuery()) {
        while (row.next()) {
          all.add(new AppPasswordCandidate(row.getLong(1), row.getLong(2), row.getString(3), row.getString(4),
              row.getString(5)));
        }
      }
    }
    return all;
  }

  /** Records that an app password was just used. */
  public synchronized void appPasswordUsed(long id, Instant now) throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(
        "UPDATE app_passwords SET last_used_at = ? WHERE id = ?")) {
      update.setString(1, now.toString());
      update.setLong(2, id);
      update.executeUpdate();
    }
  }

  /** Revokes one of a user's app passwords; false when the user has none by that id. */
  public synchronized boolean deleteAppPassword(long userId, long id) throws SQLException {
    try (PreparedStatement delete = connection.prepareStatement(
        "DELETE FROM app_passwords WHERE user_id = ? AND id = ?")) {
      delete.setLong(1, userId);
      delete.setLong(2, id);
      return delete.executeUpdate() == 1;
    }
  }

  /** Where the user's alerts go, if they chose. */
  public synchronized Optional<AlertTarget> alertTarget(long userId) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT type, url, topic, token FROM alert_targets WHERE user_id = ?")) {
      query.setLong(1, userId);
      try (ResultSet row = query.executeQuery()) {
        return row.next() ? Optional.of(new AlertTarget(row.getString(1), row.getString(2), row.getString(3),
            row.getString(4))) : Optional.empty();
      }
    }
  }

  /** Sets where the user's alerts go. */
  public synchronized void saveAlertTarget(long userId, AlertTarget target, Instant now) throws SQLException {
    try (PreparedStatement upsert = connection.prepareStatement(
        "INSERT INTO alert_targets (user_id, type, url, topic, token, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (user_id) DO UPDATE SET type = excluded.type, url = excluded.url, topic = excluded.topic,"
            + " token = excluded.token, updated_at = excluded.updated_at")) {
      upsert.setLong(1, userId);
      upsert.setString(2, target.type());
      upsert.setString(3, target.url());
      upsert.setString(4, target.topic());
      upsert.setString(5, target.token());
      upsert.setString(6, now.toString());
      upsert.executeUpdate();
    }
  }

  /** Forgets where the user's alerts go (their subscriptions stay); false when none was set. */
  public synchronized boolean deleteAlertTarget(long userId) throws SQLException {
    try (PreparedStatement delete = connection.prepareStatement("DELETE FROM alert_targets WHERE user_id = ?")) {
      delete.setLong(1, userId);
      return delete.executeUpdate() == 1;
    }
  }

  /** Subscribes the user to new-chapter alerts of a series, or ends that subscription. */
  public synchronized void setSeriesAlert(long userId, String series, boolean on, Instant now) throws SQLException {
    try (PreparedStatement change = connection.prepareStatement(on
        ? "INSERT OR IGNORE INTO series_alerts (user_id, series, created_at) VALUES (?, ?, ?)"
        : "DELETE FROM series_alerts WHERE user_id = ? AND series = ?")) {
      change.setLong(1, userId);
      change.setString(2, series);
      if (on) {
        change.setString(3, now.toString());
      }
      change.executeUpdate();
    }
  }

  /** The series the user gets new-chapter alerts of, by id. */
  public synchronized List<String> seriesAlerts(long userId) throws SQLException {
    List<String> series = new java.util.ArrayList<>();
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT series FROM series_alerts WHERE user_id = ? ORDER BY series")) {
      query.setLong(1, userId);
      try (ResultSet row = query.executeQuery()) {
        while (row.next()) {
          series.add(row.getString(1));
        }
      }
    }
    return series;
  }

  /**
   * The users to alert about new chapters of some of {@code series}: those not disabled, with a target, each with
   * only the series of the list they subscribed to.
   */
  public synchronized List<Subscriber> subscribers(java.util.Collection<String> series) throws SQLException {
    java.util.Map<String, Subscriber> byUser = new java.util.LinkedHashMap<>();
    try (PreparedStatement query = connection.prepareStatement(
        "SELECT u.username, t.type, t.url, t.topic, t.token, a.series FROM series_alerts a"
            + " JOIN users u ON u.id = a.user_id JOIN alert_targets t ON t.user_id = a.user_id"
            + " WHERE u.disabled = 0 AND a.series = ? ORDER BY u.username, a.series")) {
      for (String one : new java.util.TreeSet<>(series)) {
        query.setString(1, one);
        try (ResultSet row = query.executeQuery()) {
          while (row.next()) {
            Subscriber subscriber = byUser.get(row.getString(1));
            if (subscriber == null) {
              subscriber = new Subscriber(row.getString(1), new AlertTarget(row.getString(2), row.getString(3),
                  row.getString(4), row.getString(5)), new java.util.ArrayList<>());
              byUser.put(subscriber.username(), subscriber);
            }
            subscriber.series().add(row.getString(6));
          }
        }
      }
    }
    return byUser.values().stream().map(s -> new Subscriber(s.username(), s.target(), List.copyOf(s.series())))
        .sorted(java.util.Comparator.comparing(Subscriber::username)).toList();
  }

  @Override
  public synchronized void close() throws SQLException {
    connection.close();
  }
}
