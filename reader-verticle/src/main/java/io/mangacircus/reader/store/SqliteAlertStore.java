package io.mangacircus.reader.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** {@link AlertStore} in {@code reader.db}'s {@code alert_targets} and {@code series_alerts} tables. */
public final class SqliteAlertStore implements AlertStore {

  private final SqliteDatabase database;

  public SqliteAlertStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<AlertTarget> alertTarget(long userId) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT type, url, topic, token FROM alert_targets WHERE user_id = ?")) {
        query.setLong(1, userId);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new AlertTarget(row.getString(1), row.getString(2), row.getString(3),
              row.getString(4))) : Optional.empty();
        }
      }
    });
  }

  @Override
  public void saveAlertTarget(long userId, AlertTarget target, Instant now) throws StoreException {
    database.call(connection -> {
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
      return null;
    });
  }

  @Override
  public boolean deleteAlertTarget(long userId) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement delete = connection.prepareStatement("DELETE FROM alert_targets WHERE user_id = ?")) {
        delete.setLong(1, userId);
        return delete.executeUpdate() == 1;
      }
    });
  }

  @Override
  public void setSeriesAlert(long userId, String series, boolean on, Instant now) throws StoreException {
    database.call(connection -> {
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
      return null;
    });
  }

  @Override
  public boolean addSeriesAlert(long userId, String series, int max, Instant now) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT OR IGNORE INTO series_alerts (user_id, series, created_at) SELECT ?, ?, ?"
              + " WHERE (SELECT COUNT(*) FROM series_alerts WHERE user_id = ?) < ?");
          PreparedStatement query = connection.prepareStatement(
              "SELECT 1 FROM series_alerts WHERE user_id = ? AND series = ?")) {
        insert.setLong(1, userId);
        insert.setString(2, series);
        insert.setString(3, now.toString());
        insert.setLong(4, userId);
        insert.setInt(5, max);
        insert.executeUpdate();
        query.setLong(1, userId);
        query.setString(2, series);
        try (ResultSet row = query.executeQuery()) {
          return row.next();
        }
      }
    });
  }

  @Override
  public List<String> seriesAlerts(long userId) throws StoreException {
    return database.call(connection -> {
      List<String> series = new ArrayList<>();
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
    });
  }

  @Override
  public List<Subscriber> subscribers(Collection<String> series) throws StoreException {
    Map<String, Subscriber> byUser = database.call(connection -> {
      Map<String, Subscriber> found = new LinkedHashMap<>();
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT u.username, t.type, t.url, t.topic, t.token, a.series FROM series_alerts a"
              + " JOIN users u ON u.id = a.user_id JOIN alert_targets t ON t.user_id = a.user_id"
              + " WHERE u.disabled = 0 AND a.series = ? ORDER BY u.username, a.series")) {
        for (String one : new TreeSet<>(series)) {
          query.setString(1, one);
          try (ResultSet row = query.executeQuery()) {
            while (row.next()) {
              Subscriber subscriber = found.get(row.getString(1));
              if (subscriber == null) {
                subscriber = new Subscriber(row.getString(1), new AlertTarget(row.getString(2), row.getString(3),
                    row.getString(4), row.getString(5)), new ArrayList<>());
                found.put(subscriber.username(), subscriber);
              }
              subscriber.series().add(row.getString(6));
            }
          }
        }
      }
      return found;
    });
    return byUser.values().stream().map(s -> new Subscriber(s.username(), s.target(), List.copyOf(s.series())))
        .sorted(Comparator.comparing(Subscriber::username)).toList();
  }
}
