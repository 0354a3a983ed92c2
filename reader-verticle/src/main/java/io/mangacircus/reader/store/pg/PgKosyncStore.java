package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.KosyncStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** {@link KosyncStore} in the PostgreSQL reader database's {@code kosync_documents} and {@code kosync_pushes}. */
public final class PgKosyncStore implements KosyncStore {

  private final PgDatabase database;

  public PgKosyncStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public void record(List<Document> documents, Instant now) throws StoreException {
    if (documents.isEmpty()) {
      return;
    }
    List<Tuple> batch = documents.stream()
        .map(d -> Tuple.of(d.document(), d.series(), d.chapter(), d.kind().wire(), now.toString())).toList();
    // One batch in one transaction: every id of a serve is recorded, or none.
    database.transaction(connection -> connection.preparedQuery(
        "INSERT INTO kosync_documents (document, series, chapter, kind, recorded_at) VALUES ($1, $2, $3, $4, $5)"
            + " ON CONFLICT (document) DO UPDATE SET series = excluded.series, chapter = excluded.chapter,"
            + " kind = excluded.kind, recorded_at = excluded.recorded_at")
        .executeBatch(batch));
  }

  @Override
  public Optional<Document> document(String document) throws StoreException {
    RowSet<Row> rows = database.await(database.pool().preparedQuery(
        "SELECT document, series, chapter, kind FROM kosync_documents WHERE document = $1")
        .execute(Tuple.of(document)));
    if (rows.size() == 0) {
      return Optional.empty();
    }
    Row row = rows.iterator().next();
    return Optional.of(new Document(row.getString(0), row.getString(1), row.getString(2),
        Kind.of(row.getString(3))));
  }

  @Override
  public Optional<Push> lastPush(long userId, String document) throws StoreException {
    RowSet<Row> rows = database.await(database.pool().preparedQuery(
        "SELECT document, progress, percentage, device, device_id, pushed_at FROM kosync_pushes"
            + " WHERE user_id = $1 AND document = $2").execute(Tuple.of(userId, document)));
    if (rows.size() == 0) {
      return Optional.empty();
    }
    Row row = rows.iterator().next();
    return Optional.of(new Push(row.getString(0), row.getString(1), row.getDouble(2), row.getString(3),
        row.getString(4), Instant.parse(row.getString(5))));
  }

  @Override
  public void savePush(long userId, Push push) throws StoreException {
    database.await(database.pool().preparedQuery(
        "INSERT INTO kosync_pushes (user_id, document, progress, percentage, device, device_id, pushed_at)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, document) DO UPDATE SET"
            + " progress = excluded.progress, percentage = excluded.percentage, device = excluded.device,"
            + " device_id = excluded.device_id, pushed_at = excluded.pushed_at")
        .execute(Tuple.of(userId, push.document(), push.progress(), push.percentage(), push.device(),
            push.deviceId(), push.at().toString())));
  }
}
