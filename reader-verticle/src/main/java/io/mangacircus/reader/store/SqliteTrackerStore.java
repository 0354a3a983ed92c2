package io.mangacircus.reader.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link TrackerStore} in {@code reader.db}'s {@code tracker_accounts}, {@code tracker_links} and {@code tracker_outbox}. */
public final class SqliteTrackerStore implements TrackerStore {

  private static final String ACCOUNT_COLUMNS = "user_id, tracker, sealed_access, sealed_refresh, expires_at,"
      + " account_id, account_name, needs_sign_in, problem, updated_at";
  private static final String LINK_COLUMNS = "user_id, tracker, series, remote_id, title, automatic, list_entry_id,"
      + " tracker_progress, tracker_status, total_chapters, last_push_at, last_sync_at, last_error, pull_offered,"
      + " linked_at";
  private static final String UPDATE_COLUMNS = "user_id, tracker, series, due_ms, attempts, version, last_error,"
      + " created_at";

  private final SqliteDatabase database;

  public SqliteTrackerStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<TrackerAccount> account(long userId, String tracker) throws StoreException {
    return database.call(c -> first(prepare(c, "SELECT " + ACCOUNT_COLUMNS
        + " FROM tracker_accounts WHERE user_id = ? AND tracker = ?", userId, tracker), SqliteTrackerStore::account));
  }

  @Override
  public List<TrackerAccount> accounts(long userId) throws StoreException {
    return database.call(c -> all(prepare(c, "SELECT " + ACCOUNT_COLUMNS
        + " FROM tracker_accounts WHERE user_id = ? ORDER BY tracker", userId), SqliteTrackerStore::account));
  }

  @Override
  public void saveAccount(TrackerAccount a) throws StoreException {
    database.call(c -> update(c, "INSERT OR REPLACE INTO tracker_accounts (" + ACCOUNT_COLUMNS
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", a.userId(), a.tracker(), a.sealedAccess(), a.sealedRefresh(),
        text(a.expiresAt()), a.accountId(), a.accountName(), a.needsSignIn() ? 1 : 0, a.problem(),
        text(a.updatedAt())));
  }

  @Override
  public boolean deleteAccount(long userId, String tracker) throws StoreException {
    return database.call(c -> update(c, "DELETE FROM tracker_accounts WHERE user_id = ? AND tracker = ?", userId,
        tracker)) > 0;
  }

  @Override
  public Optional<TrackerLink> link(long userId, String tracker, String series) throws StoreException {
    return database.call(c -> first(prepare(c, "SELECT " + LINK_COLUMNS
        + " FROM tracker_links WHERE user_id = ? AND tracker = ? AND series = ?", userId, tracker, series),
        SqliteTrackerStore::link));
  }

  @Override
  public List<TrackerLink> links(long userId, String series) throws StoreException {
    return database.call(c -> all(prepare(c, "SELECT " + LINK_COLUMNS
        + " FROM tracker_links WHERE user_id = ? AND series = ? ORDER BY tracker", userId, series),
        SqliteTrackerStore::link));
  }

  @Override
  public List<TrackerLink> links(long userId) throws StoreException {
    return database.call(c -> all(prepare(c, "SELECT " + LINK_COLUMNS
        + " FROM tracker_links WHERE user_id = ? ORDER BY series, tracker", userId), SqliteTrackerStore::link));
  }

  @Override
  public void saveLink(TrackerLink l) throws StoreException {
    database.call(c -> update(c, "INSERT OR REPLACE INTO tracker_links (" + LINK_COLUMNS
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", l.userId(), l.tracker(), l.series(), l.remoteId(),
        l.title(), l.automatic() ? 1 : 0, l.listEntryId(), l.trackerProgress(), l.trackerStatus(), l.totalChapters(),
        text(l.lastPushAt()), text(l.lastSyncAt()), l.lastError(), l.pullOffered(), text(l.linkedAt())));
  }

  @Override
  public boolean deleteLink(long userId, String tracker, String series) throws StoreException {
    return database.transaction(c -> {
      update(c, "DELETE FROM tracker_outbox WHERE user_id = ? AND tracker = ? AND series = ?", userId, tracker,
          series);
      return update(c, "DELETE FROM tracker_links WHERE user_id = ? AND tracker = ? AND series = ?", userId, tracker,
          series) > 0;
    });
  }

  @Override
  public void requestUpdate(long userId, String tracker, String series, Instant due, Instant now)
      throws StoreException {
    database.transaction(c -> {
      update(c, "UPDATE tracker_outbox_version SET last = last + 1");
      long version = first(prepare(c, "SELECT last FROM tracker_outbox_version"), row -> row.getLong(1)).orElseThrow();
      return update(c, "INSERT INTO tracker_outbox (" + UPDATE_COLUMNS
          + ") VALUES (?, ?, ?, ?, 0, ?, '', ?) ON CONFLICT (user_id, tracker, series) DO UPDATE SET"
          + " version = excluded.version, due_ms = MAX(tracker_outbox.due_ms, excluded.due_ms)",
          userId, tracker, series, TrackerStore.dueMillis(due), version, text(now));
    });
  }

  @Override
  public Optional<TrackerUpdate> pendingUpdate(long userId, String tracker, String series) throws StoreException {
    return database.call(c -> first(prepare(c, "SELECT " + UPDATE_COLUMNS
        + " FROM tracker_outbox WHERE user_id = ? AND tracker = ? AND series = ?", userId, tracker, series),
        SqliteTrackerStore::update));
  }

  @Override
  public List<TrackerUpdate> dueUpdates(Instant now, int max) throws StoreException {
    return database.call(c -> due(c, now, max));
  }

  @Override
  public List<TrackerUpdate> claimDue(Instant now, Instant until, int max) throws StoreException {
    // One connection, one caller at a time (and one reader per file): reading then marking in a transaction is a claim.
    return database.transaction(c -> {
      List<TrackerUpdate> due = due(c, now, max);
      for (TrackerUpdate update : due) {
        update(c, "UPDATE tracker_outbox SET claimed_until_ms = ? WHERE user_id = ? AND tracker = ? AND series = ?",
            TrackerStore.dueMillis(until), update.userId(), update.tracker(), update.series());
      }
      return due;
    });
  }

  private static List<TrackerUpdate> due(Connection c, Instant now, int max) throws SQLException {
    return all(prepare(c, "SELECT " + UPDATE_COLUMNS + " FROM tracker_outbox WHERE due_ms <= ?"
        + " AND claimed_until_ms <= ? ORDER BY due_ms, created_at, user_id, tracker, series LIMIT ?",
        now.toEpochMilli(), now.toEpochMilli(), max), SqliteTrackerStore::update);
  }

  @Override
  public Optional<Instant> nextDue() throws StoreException {
    return database.call(c -> first(prepare(c, "SELECT MAX(due_ms, claimed_until_ms) AS at FROM tracker_outbox"
        + " ORDER BY at LIMIT 1"), row -> Instant.ofEpochMilli(row.getLong(1))));
  }

  @Override
  public void postpone(long userId, String tracker, String series, Instant due, int attempts, String error)
      throws StoreException {
    database.call(c -> update(c, "UPDATE tracker_outbox SET due_ms = ?, attempts = ?, last_error = ?,"
        + " claimed_until_ms = 0 WHERE user_id = ? AND tracker = ? AND series = ?", TrackerStore.dueMillis(due),
        attempts, error == null ? "" : error, userId, tracker, series));
  }

  @Override
  public boolean delivered(long userId, String tracker, String series, long version) throws StoreException {
    return database.transaction(c -> {
      if (update(c, "DELETE FROM tracker_outbox WHERE user_id = ? AND tracker = ? AND series = ? AND version <= ?",
          userId, tracker, series, version) > 0) {
        return true;
      }
      update(c, "UPDATE tracker_outbox SET attempts = 0, last_error = '', claimed_until_ms = 0 WHERE user_id = ?"
          + " AND tracker = ?"
          + " AND series = ?", userId, tracker, series);
      return false;
    });
  }

  @Override
  public void releaseWaiting(long userId, String tracker, Instant now) throws StoreException {
    database.call(c -> update(c, "UPDATE tracker_outbox SET due_ms = ? WHERE user_id = ? AND tracker = ?"
        + " AND due_ms > ?", now.toEpochMilli(), userId, tracker, now.toEpochMilli()));
  }

  @Override
  public Map<String, Integer> pendingByTracker() throws StoreException {
    return database.call(c -> {
      Map<String, Integer> pending = new LinkedHashMap<>();
      try (PreparedStatement statement = prepare(c,
          "SELECT tracker, COUNT(*) FROM tracker_outbox GROUP BY tracker ORDER BY tracker");
          ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          pending.put(rows.getString(1), rows.getInt(2));
        }
      }
      return pending;
    });
  }

  private static TrackerAccount account(ResultSet r) throws SQLException {
    return new TrackerAccount(r.getLong(1), r.getString(2), r.getString(3), r.getString(4), instant(r.getString(5)),
        r.getString(6), r.getString(7), r.getInt(8) != 0, r.getString(9), instant(r.getString(10)));
  }

  private static TrackerLink link(ResultSet r) throws SQLException {
    return new TrackerLink(r.getLong(1), r.getString(2), r.getString(3), r.getString(4), r.getString(5),
        r.getInt(6) != 0, r.getString(7), integer(r, 8), r.getString(9), integer(r, 10), instant(r.getString(11)),
        instant(r.getString(12)), r.getString(13), integer(r, 14), instant(r.getString(15)));
  }

  private static TrackerUpdate update(ResultSet r) throws SQLException {
    return new TrackerUpdate(r.getLong(1), r.getString(2), r.getString(3), Instant.ofEpochMilli(r.getLong(4)),
        r.getInt(5), r.getLong(6), r.getString(7), instant(r.getString(8)));
  }

  /** Reads one row into a value. */
  @FunctionalInterface
  private interface Row<T> {
    T of(ResultSet row) throws SQLException;
  }

  private static PreparedStatement prepare(Connection c, String sql, Object... values) throws SQLException {
    PreparedStatement statement = c.prepareStatement(sql);
    try {
      for (int i = 0; i < values.length; i++) {
        Object value = values[i];
        if (value == null) {
          statement.setNull(i + 1, Types.NULL);
        } else if (value instanceof Long number) {
          statement.setLong(i + 1, number);
        } else if (value instanceof Integer number) {
          statement.setInt(i + 1, number);
        } else {
          statement.setString(i + 1, value.toString());
        }
      }
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  private static int update(Connection c, String sql, Object... values) throws SQLException {
    try (PreparedStatement statement = prepare(c, sql, values)) {
      return statement.executeUpdate();
    }
  }

  private static <T> Optional<T> first(PreparedStatement statement, Row<T> row) throws SQLException {
    List<T> rows = all(statement, row);
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  private static <T> List<T> all(PreparedStatement statement, Row<T> row) throws SQLException {
    try (statement; ResultSet rows = statement.executeQuery()) {
      List<T> values = new ArrayList<>();
      while (rows.next()) {
        values.add(row.of(rows));
      }
      return values;
    }
  }

  private static Integer integer(ResultSet r, int column) throws SQLException {
    int value = r.getInt(column);
    return r.wasNull() ? null : value;
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }

  private static Instant instant(String text) {
    return text == null ? null : Instant.parse(text);
  }
}
