package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.AlertStore;
import io.mangacircus.reader.store.AlertTarget;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.Subscriber;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** {@link AlertStore} in the PostgreSQL reader database's {@code alert_targets} and {@code series_alerts} tables. */
public final class PgAlertStore implements AlertStore {

  private final PgDatabase database;

  public PgAlertStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<AlertTarget> alertTarget(long userId) throws StoreException {
    RowSet<Row> rows = database.await(database.pool().preparedQuery(
        "SELECT type, url, topic, token FROM alert_targets WHERE user_id = $1").execute(Tuple.of(userId)));
    if (rows.size() == 0) {
      return Optional.empty();
    }
    Row row = rows.iterator().next();
    return Optional.of(new AlertTarget(row.getString(0), row.getString(1), row.getString(2), row.getString(3)));
  }

  @Override
  public void saveAlertTarget(long userId, AlertTarget target, Instant now) throws StoreException {
    database.await(database.pool().preparedQuery(
        "INSERT INTO alert_targets (user_id, type, url, topic, token, updated_at) VALUES ($1, $2, $3, $4, $5, $6)"
            + " ON CONFLICT (user_id) DO UPDATE SET type = excluded.type, url = excluded.url, topic = excluded.topic,"
            + " token = excluded.token, updated_at = excluded.updated_at")
        .execute(Tuple.of(userId, target.type(), target.url(), target.topic(), target.token(), now.toString())));
  }

  @Override
  public boolean deleteAlertTarget(long userId) throws StoreException {
    return database.await(database.pool().preparedQuery("DELETE FROM alert_targets WHERE user_id = $1")
        .execute(Tuple.of(userId))).rowCount() == 1;
  }

  @Override
  public void setSeriesAlert(long userId, String series, boolean on, Instant now) throws StoreException {
    database.await(on
        ? database.pool().preparedQuery("INSERT INTO series_alerts (user_id, series, created_at) VALUES ($1, $2, $3)"
            + " ON CONFLICT DO NOTHING").execute(Tuple.of(userId, series, now.toString()))
        : database.pool().preparedQuery("DELETE FROM series_alerts WHERE user_id = $1 AND series = $2")
            .execute(Tuple.of(userId, series)));
  }

  @Override
  public boolean addSeriesAlert(long userId, String series, int max, Instant now) throws StoreException {
    // Several readers may add for one user at once: the user's row, locked for the transaction, makes the count and
    // the insert one step (FOR NO KEY UPDATE leaves the foreign keys' share locks on that row free).
    return database.transaction(connection -> connection
        .preparedQuery("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE").execute(Tuple.of(userId))
        .compose(locked -> connection.preparedQuery("SELECT COUNT(*) FROM series_alerts WHERE user_id = $1")
            .execute(Tuple.of(userId)))
        .compose(count -> count.iterator().next().getLong(0) < max
            ? connection.preparedQuery("INSERT INTO series_alerts (user_id, series, created_at) VALUES ($1, $2, $3)"
                + " ON CONFLICT DO NOTHING").execute(Tuple.of(userId, series, now.toString())).mapEmpty()
            : Future.succeededFuture())
        .compose(added -> connection.preparedQuery("SELECT 1 FROM series_alerts WHERE user_id = $1 AND series = $2")
            .execute(Tuple.of(userId, series)))
        .map(held -> held.size() > 0));
  }

  @Override
  public List<String> seriesAlerts(long userId) throws StoreException {
    List<String> series = new ArrayList<>();
    for (Row row : database.await(database.pool().preparedQuery(
        "SELECT series FROM series_alerts WHERE user_id = $1 ORDER BY series COLLATE \"C\"")
        .execute(Tuple.of(userId)))) {
      series.add(row.getString(0));
    }
    return series;
  }

  @Override
  public List<Subscriber> subscribers(Collection<String> series) throws StoreException {
    if (series.isEmpty()) {
      return List.of();
    }
    RowSet<Row> rows = database.await(database.pool().preparedQuery(
        "SELECT u.username, t.type, t.url, t.topic, t.token, a.series FROM series_alerts a"
            + " JOIN users u ON u.id = a.user_id JOIN alert_targets t ON t.user_id = a.user_id"
            + " WHERE u.disabled = 0 AND a.series = ANY($1)")
        .execute(Tuple.of(series.toArray(String[]::new))));
    // Ordered here, not by the database's collation: users and their series in Java's string order, as the SQLite
    // store gives them.
    Map<String, Subscriber> byUser = new TreeMap<>();
    for (Row row : rows) {
      byUser.computeIfAbsent(row.getString(0), username -> new Subscriber(username, new AlertTarget(row.getString(1),
          row.getString(2), row.getString(3), row.getString(4)), new ArrayList<>())).series().add(row.getString(5));
    }
    return byUser.values().stream()
        .map(s -> new Subscriber(s.username(), s.target(), s.series().stream().sorted().toList())).toList();
  }
}
