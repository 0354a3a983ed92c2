package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.LibraryVisit;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link ProgressStore} in PostgreSQL's {@code progress}, {@code chapter_reads} and {@code library_visits} tables; a
 * finished chapter's position and read mark are saved in one transaction. Nothing is kept in memory: other readers
 * write the same rows.
 */
public final class PgProgressStore implements ProgressStore {

  private static final String SAVE_POSITION =
      "INSERT INTO progress (user_id, series, chapter, page, updated_at) VALUES ($1, $2, $3, $4, $5)"
          + " ON CONFLICT (user_id, series) DO UPDATE SET chapter = excluded.chapter, page = excluded.page,"
          + " updated_at = excluded.updated_at";

  private static final String MARK_READ = "INSERT INTO chapter_reads (user_id, series, chapter, read_at)"
      + " SELECT $1, $2, chapter, $4 FROM unnest($3::text[]) AS chapter ON CONFLICT DO NOTHING";

  private final PgDatabase database;

  public PgProgressStore(PgDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<Progress> progress(long userId, String series) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT series, chapter, page, updated_at FROM progress WHERE user_id = $1 AND series = $2")
        .execute(Tuple.of(userId, series))
        .map(rows -> {
          for (Row row : rows) {
            return Optional.of(progressOf(row));
          }
          return Optional.<Progress>empty();
        }));
  }

  @Override
  public List<Progress> progress(long userId) throws StoreException {
    // The ISO text's order, as SQLite compares it (byte by byte).
    return database.await(database.pool().preparedQuery("SELECT series, chapter, page, updated_at FROM progress"
        + " WHERE user_id = $1 ORDER BY updated_at COLLATE \"C\" DESC")
        .execute(Tuple.of(userId))
        .map(rows -> {
          List<Progress> all = new ArrayList<>();
          for (Row row : rows) {
            all.add(progressOf(row));
          }
          return all;
        }));
  }

  private static Progress progressOf(Row row) {
    return new Progress(row.getString(0), row.getString(1), row.getInteger(2), Instant.parse(row.getString(3)));
  }

  @Override
  public void saveProgress(long userId, String series, String chapter, int page, boolean chapterFinished,
      Instant now) throws StoreException {
    Tuple position = Tuple.of(userId, series, chapter, page, now.toString());
    if (!chapterFinished) {
      // A page turned is one statement: no transaction around it, so one round trip instead of three.
      database.await(database.pool().preparedQuery(SAVE_POSITION).execute(position));
      return;
    }
    database.transaction(connection -> connection.preparedQuery(SAVE_POSITION).execute(position)
        .compose(saved -> markRead(connection, userId, series, List.of(chapter), now)));
  }

  @Override
  public void setRead(long userId, String series, String chapter, boolean read, Instant now) throws StoreException {
    if (read) {
      database.await(markRead(database.pool(), userId, series, List.of(chapter), now));
      return;
    }
    database.await(database.pool().preparedQuery(
        "DELETE FROM chapter_reads WHERE user_id = $1 AND series = $2 AND chapter = $3")
        .execute(Tuple.of(userId, series, chapter)));
  }

  @Override
  public void markRead(long userId, String series, Collection<String> chapters, Instant now) throws StoreException {
    // One statement: every chapter marked, or none.
    database.await(markRead(database.pool(), userId, series, chapters, now));
  }

  /** Marks chapters read; a chapter read before keeps its first time. */
  private static Future<RowSet<Row>> markRead(SqlClient client, long userId, String series,
      Collection<String> chapters, Instant now) {
    return client.preparedQuery(MARK_READ)
        .execute(Tuple.of(userId, series, chapters.toArray(String[]::new), now.toString()));
  }

  @Override
  public void clearProgress(long userId, String series) throws StoreException {
    database.await(database.pool().preparedQuery("DELETE FROM progress WHERE user_id = $1 AND series = $2")
        .execute(Tuple.of(userId, series)));
  }

  @Override
  public Map<String, Instant> readTimes(long userId, String series) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT chapter, read_at FROM chapter_reads WHERE user_id = $1 AND series = $2")
        .execute(Tuple.of(userId, series))
        .map(rows -> {
          Map<String, Instant> read = new HashMap<>();
          for (Row row : rows) {
            read.put(row.getString(0), Instant.parse(row.getString(1)));
          }
          return read;
        }));
  }

  @Override
  public Set<String> readChapters(long userId, String series) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT chapter FROM chapter_reads WHERE user_id = $1 AND series = $2")
        .execute(Tuple.of(userId, series))
        .map(rows -> {
          Set<String> read = new HashSet<>();
          for (Row row : rows) {
            read.add(row.getString(0));
          }
          return read;
        }));
  }

  @Override
  public Map<String, Set<String>> readChapters(long userId) throws StoreException {
    return database.await(database.pool().preparedQuery(
        "SELECT series, chapter FROM chapter_reads WHERE user_id = $1")
        .execute(Tuple.of(userId))
        .map(rows -> {
          Map<String, Set<String>> read = new HashMap<>();
          for (Row row : rows) {
            read.computeIfAbsent(row.getString(0), s -> new HashSet<>()).add(row.getString(1));
          }
          return read;
        }));
  }

  @Override
  public Optional<LibraryVisit> libraryVisit(long userId) throws StoreException {
    return database.await(database.pool().preparedQuery("SELECT since, last_at FROM library_visits WHERE user_id = $1")
        .execute(Tuple.of(userId))
        .map(rows -> {
          for (Row row : rows) {
            String since = row.getString(0);
            return Optional.of(new LibraryVisit(since == null ? null : Instant.parse(since),
                Instant.parse(row.getString(1))));
          }
          return Optional.<LibraryVisit>empty();
        }));
  }

  @Override
  public void saveLibraryVisit(long userId, LibraryVisit visit) throws StoreException {
    database.await(database.pool().preparedQuery("INSERT INTO library_visits (user_id, since, last_at)"
        + " VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE SET since = excluded.since, last_at = excluded.last_at")
        .execute(Tuple.of(userId, visit.since() == null ? null : visit.since().toString(), visit.lastAt().toString())));
  }
}
