package io.mangacircus.reader.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** {@link KosyncStore} in {@code reader.db}'s {@code kosync_documents} and {@code kosync_pushes} tables. */
public final class SqliteKosyncStore implements KosyncStore {

  private final SqliteDatabase database;

  public SqliteKosyncStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public void record(List<Document> documents, Instant now) throws StoreException {
    if (documents.isEmpty()) {
      return;
    }
    database.transaction(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(
          "INSERT INTO kosync_documents (document, series, chapter, kind, recorded_at) VALUES (?, ?, ?, ?, ?)"
              + " ON CONFLICT (document) DO UPDATE SET series = excluded.series, chapter = excluded.chapter,"
              + " kind = excluded.kind, recorded_at = excluded.recorded_at")) {
        for (Document d : documents) {
          upsert.setString(1, d.document());
          upsert.setString(2, d.series());
          upsert.setString(3, d.chapter());
          upsert.setString(4, d.kind().wire());
          upsert.setString(5, now.toString());
          upsert.executeUpdate();
        }
      }
      return null;
    });
  }

  @Override
  public Optional<Document> document(String document) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT document, series, chapter, kind FROM kosync_documents WHERE document = ?")) {
        query.setString(1, document);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new Document(row.getString(1), row.getString(2), row.getString(3),
              Kind.of(row.getString(4)))) : Optional.empty();
        }
      }
    });
  }

  @Override
  public Optional<Push> lastPush(long userId, String document) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT document, progress, percentage, device, device_id, pushed_at FROM kosync_pushes"
              + " WHERE user_id = ? AND document = ?")) {
        query.setLong(1, userId);
        query.setString(2, document);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(new Push(row.getString(1), row.getString(2), row.getDouble(3),
              row.getString(4), row.getString(5), Instant.parse(row.getString(6)))) : Optional.empty();
        }
      }
    });
  }

  @Override
  public void savePush(long userId, Push push) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(
          "INSERT INTO kosync_pushes (user_id, document, progress, percentage, device, device_id, pushed_at)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, document) DO UPDATE SET"
              + " progress = excluded.progress, percentage = excluded.percentage, device = excluded.device,"
              + " device_id = excluded.device_id, pushed_at = excluded.pushed_at")) {
        upsert.setLong(1, userId);
        upsert.setString(2, push.document());
        upsert.setString(3, push.progress());
        upsert.setDouble(4, push.percentage());
        upsert.setString(5, push.device());
        upsert.setString(6, push.deviceId());
        upsert.setString(7, push.at().toString());
        return upsert.executeUpdate();
      }
    });
  }
}
