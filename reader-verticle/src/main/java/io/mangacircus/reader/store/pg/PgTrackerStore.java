package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.mangacircus.reader.store.TrackerUpdate;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@link TrackerStore} in the PostgreSQL reader database's {@code tracker_accounts}, {@code tracker_links} and
 * {@code tracker_outbox}. Text is ordered by its bytes ({@code COLLATE "C"}), as SQLite orders it.
 */
public final class PgTrackerStore implements TrackerStore {

  private static final String ACCOUNT_COLUMNS = "user_id, tracker, sealed_access, sealed_refresh, expires_at,"
      + " account_id, account_name, needs_sign_in, problem, updated_at";
  private static final String LINK_COLUMNS = "user_id, tracker, series, remote_id, title, automatic, list_entry_id,"
      + " tracker_progress, tracker_status, total_chapters, last_push_at, last_sync_at, last_error, pull_offered,"
      + " linked_at";
  private static final String UPDATE_COLUMNS = "user_id, tracker, series, due_ms, attempts, version, last_error,"
      + " created_at";
  /** The outbox's order of delivery: earliest due first, then the oldest request. */
  private static final String DUE_ORDER = "due_ms, created_at COLLATE \"C\", user_id, tracker COLLATE \"C\","
      + " series COLLATE \"C\"";
  /** A save replaces every column but the primary key's (user and tracker; and series for a link). */
  private static final String ACCOUNT_REPLACED = replacing(ACCOUNT_COLUMNS, 2);
  private static final String LINK_REPLACED = replacing(LINK_COLUMNS, 3);

  private final PgDatabase database;

  public PgTrackerStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<TrackerAccount> account(long userId, String tracker) throws StoreException {
    return first(run("SELECT " + ACCOUNT_COLUMNS + " FROM tracker_accounts WHERE user_id = $1 AND tracker = $2",
        userId, tracker), PgTrackerStore::account);
  }

  @Override
  public List<TrackerAccount> accounts(long userId) throws StoreException {
    return all(run("SELECT " + ACCOUNT_COLUMNS + " FROM tracker_accounts WHERE user_id = $1"
        + " ORDER BY tracker COLLATE \"C\"", userId), PgTrackerStore::account);
  }

  @Override
  public void saveAccount(TrackerAccount a) throws StoreException {
    run("INSERT INTO tracker_accounts (" + ACCOUNT_COLUMNS + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
        + " ON CONFLICT (user_id, tracker) DO UPDATE SET " + ACCOUNT_REPLACED, a.userId(), a.tracker(),
        a.sealedAccess(), a.sealedRefresh(), text(a.expiresAt()), a.accountId(), a.accountName(),
        a.needsSignIn() ? 1 : 0, a.problem(), text(a.updatedAt()));
  }

  @Override
  public boolean deleteAccount(long userId, String tracker) throws StoreException {
    return run("DELETE FROM tracker_accounts WHERE user_id = $1 AND tracker = $2", userId, tracker).rowCount() > 0;
  }

  @Override
  public Optional<TrackerLink> link(long userId, String tracker, String series) throws StoreException {
    return first(run("SELECT " + LINK_COLUMNS + " FROM tracker_links WHERE user_id = $1 AND tracker = $2"
        + " AND series = $3", userId, tracker, series), PgTrackerStore::link);
  }

  @Override
  public List<TrackerLink> links(long userId, String series) throws StoreException {
    return all(run("SELECT " + LINK_COLUMNS + " FROM tracker_links WHERE user_id = $1 AND series = $2"
        + " ORDER BY tracker COLLATE \"C\"", userId, series), PgTrackerStore::link);
  }

  @Override
  public List<TrackerLink> links(long userId) throws StoreException {
    return all(run("SELECT " + LINK_COLUMNS + " FROM tracker_links WHERE user_id = $1"
        + " ORDER BY series COLLATE \"C\", tracker COLLATE \"C\"", userId), PgTrackerStore::link);
  }

  @Override
  public void saveLink(TrackerLink l) throws StoreException {
    run("INSERT INTO tracker_links (" + LINK_COLUMNS + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
        + " $12, $13, $14, $15) ON CONFLICT (user_id, tracker, series) DO UPDATE SET " + LINK_REPLACED,
        l.userId(), l.tracker(), l.series(), l.remoteId(), l.title(), l.automatic() ? 1 : 0, l.listEntryId(),
        l.trackerProgress(), l.trackerStatus(), l.totalChapters(), text(l.lastPushAt()), text(l.lastSyncAt()),
        l.lastError(), l.pullOffered(), text(l.linkedAt()));
  }

  @Override
  public boolean deleteLink(long userId, String tracker, String series) throws StoreException {
    Tuple key = Tuple.of(userId, tracker, series);
    return database.transaction(c -> c
        .preparedQuery("DELETE FROM tracker_outbox WHERE user_id = $1 AND tracker = $2 AND series = $3").execute(key)
        .compose(outbox -> c.preparedQuery("DELETE FROM tracker_links WHERE user_id = $1 AND tracker = $2"
            + " AND series = $3").execute(key))
        .map(links -> links.rowCount() > 0));
  }

  @Override
  public void requestUpdate(long userId, String tracker, String series, Instant due, Instant now)
      throws StoreException {
    // The counter's row, locked by the UPDATE until the commit, hands out versions in commit order to every reader.
    database.transaction(c -> c
        .preparedQuery("UPDATE tracker_outbox_version SET last = last + 1 RETURNING last").execute()
        .compose(counter -> c.preparedQuery("INSERT INTO tracker_outbox (" + UPDATE_COLUMNS + ")"
            + " VALUES ($1, $2, $3, $4, 0, $5, '', $6) ON CONFLICT (user_id, tracker, series) DO UPDATE SET"
            + " version = excluded.version, due_ms = GREATEST(tracker_outbox.due_ms, excluded.due_ms)")
            .execute(Tuple.of(userId, tracker, series, TrackerStore.dueMillis(due),
                counter.iterator().next().getLong(0), text(now)))));
  }

  @Override
  public Optional<TrackerUpdate> pendingUpdate(long userId, String tracker, String series) throws StoreException {
    return first(run("SELECT " + UPDATE_COLUMNS + " FROM tracker_outbox WHERE user_id = $1 AND tracker = $2"
        + " AND series = $3", userId, tracker, series), PgTrackerStore::update);
  }

  @Override
  public List<TrackerUpdate> dueUpdates(Instant now, int max) throws StoreException {
    return all(run("SELECT " + UPDATE_COLUMNS + " FROM tracker_outbox WHERE due_ms <= $1 AND claimed_until_ms <= $1"
        + " ORDER BY " + DUE_ORDER + " LIMIT $2", now.toEpochMilli(), (long) max), PgTrackerStore::update);
  }

  @Override
  public List<TrackerUpdate> claimDue(Instant now, Instant until, int max) throws StoreException {
    // SKIP LOCKED: a row another reader's claim is marking is passed over, not waited for; a row it has marked no
    // longer matches once its claim commits (the condition is checked again on the row as committed).
    return all(run("WITH claimed AS (UPDATE tracker_outbox o SET claimed_until_ms = $2 FROM (SELECT user_id, tracker,"
        + " series FROM tracker_outbox WHERE due_ms <= $1 AND claimed_until_ms <= $1 ORDER BY " + DUE_ORDER
        + " LIMIT $3 FOR UPDATE SKIP LOCKED) d WHERE o.user_id = d.user_id AND o.tracker = d.tracker"
        + " AND o.series = d.series RETURNING o.*) SELECT " + UPDATE_COLUMNS + " FROM claimed ORDER BY " + DUE_ORDER,
        now.toEpochMilli(), TrackerStore.dueMillis(until), (long) max), PgTrackerStore::update);
  }

  @Override
  public Optional<Instant> nextDue() throws StoreException {
    return first(run("SELECT GREATEST(due_ms, claimed_until_ms) AS at FROM tracker_outbox ORDER BY at LIMIT 1"),
        row -> Instant.ofEpochMilli(row.getLong(0)));
  }

  @Override
  public void postpone(long userId, String tracker, String series, Instant due, int attempts, String error)
      throws StoreException {
    run("UPDATE tracker_outbox SET due_ms = $1, attempts = $2, last_error = $3, claimed_until_ms = 0"
        + " WHERE user_id = $4 AND tracker = $5 AND series = $6", TrackerStore.dueMillis(due), attempts,
        error == null ? "" : error, userId, tracker, series);
  }

  @Override
  public boolean delivered(long userId, String tracker, String series, long version) throws StoreException {
    return database.transaction(c -> c
        .preparedQuery("DELETE FROM tracker_outbox WHERE user_id = $1 AND tracker = $2 AND series = $3"
            + " AND version <= $4").execute(Tuple.of(userId, tracker, series, version))
        .compose(removed -> removed.rowCount() > 0
            ? Future.succeededFuture(true)
            : c.preparedQuery("UPDATE tracker_outbox SET attempts = 0, last_error = '', claimed_until_ms = 0"
                + " WHERE user_id = $1"
                + " AND tracker = $2 AND series = $3").execute(Tuple.of(userId, tracker, series)).map(false)));
  }

  @Override
  public void releaseWaiting(long userId, String tracker, Instant now) throws StoreException {
    run("UPDATE tracker_outbox SET due_ms = $1 WHERE user_id = $2 AND tracker = $3 AND due_ms > $1",
        now.toEpochMilli(), userId, tracker);
  }

  @Override
  public Map<String, Integer> pendingByTracker() throws StoreException {
    Map<String, Integer> pending = new LinkedHashMap<>();
    for (Row row : run("SELECT tracker, COUNT(*) FROM tracker_outbox GROUP BY tracker"
        + " ORDER BY tracker COLLATE \"C\"")) {
      pending.put(row.getString(0), row.getLong(1).intValue());
    }
    return pending;
  }

  private static TrackerAccount account(Row r) {
    return new TrackerAccount(r.getLong(0), r.getString(1), r.getString(2), r.getString(3), instant(r.getString(4)),
        r.getString(5), r.getString(6), r.getInteger(7) != 0, r.getString(8), instant(r.getString(9)));
  }

  private static TrackerLink link(Row r) {
    return new TrackerLink(r.getLong(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
        r.getInteger(5) != 0, r.getString(6), r.getInteger(7), r.getString(8), r.getInteger(9),
        instant(r.getString(10)), instant(r.getString(11)), r.getString(12), r.getInteger(13),
        instant(r.getString(14)));
  }

  private static TrackerUpdate update(Row r) {
    return new TrackerUpdate(r.getLong(0), r.getString(1), r.getString(2), Instant.ofEpochMilli(r.getLong(3)),
        r.getInteger(4), r.getLong(5), r.getString(6), instant(r.getString(7)));
  }

  /** {@code a = excluded.a, …} for every column after the first {@code key} ones (the primary key's). */
  private static String replacing(String columns, int key) {
    return String.join(", ", Arrays.stream(columns.split(",\\s*")).skip(key).map(c -> c + " = excluded." + c)
        .toList());
  }

  /** One statement on a pooled connection, its values bound in order (nulls included). */
  private RowSet<Row> run(String sql, Object... values) throws StoreException {
    return database.await(database.pool().preparedQuery(sql).execute(Tuple.from(Arrays.asList(values))));
  }

  private static <T> Optional<T> first(RowSet<Row> rows, Function<Row, T> value) {
    return rows.size() == 0 ? Optional.empty() : Optional.of(value.apply(rows.iterator().next()));
  }

  private static <T> List<T> all(RowSet<Row> rows, Function<Row, T> value) {
    List<T> values = new ArrayList<>(rows.size());
    rows.forEach(row -> values.add(value.apply(row)));
    return values;
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }

  private static Instant instant(String text) {
    return text == null ? null : Instant.parse(text);
  }
}
