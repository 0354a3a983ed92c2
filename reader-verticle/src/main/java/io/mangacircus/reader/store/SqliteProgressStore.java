package io.mangacircus.reader.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link ProgressStore} in {@code reader.db}'s {@code progress}, {@code chapter_reads} and {@code library_visits}
 * tables; a finished chapter's position and read mark are saved in one transaction.
 */
public final class SqliteProgressStore implements ProgressStore {

  private final SqliteDatabase database;

  public SqliteProgressStore(SqliteDatabase database) {
    this.database = database;
  }

  @Override
  public Optional<Progress> progress(long userId, String series) throws StoreException {
    return database.call(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT series, chapter, page, updated_at FROM progress WHERE user_id = ? AND series = ?")) {
        query.setLong(1, userId);
        query.setString(2, series);
        try (ResultSet row = query.executeQuery()) {
          return row.next() ? Optional.of(progressOf(row)) : Optional.empty();
        }
      }
    });
  }

  @Override
  public List<Progress> progress(long userId) throws StoreException {
    return database.call(connection -> {
      List<Progress> all = new ArrayList<>();
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
    });
  }

  private static Progress progressOf(ResultSet row) throws SQLException {
    return new Progress(row.getString(1), row.getString(2), row.getInt(3), Instant.parse(row.getString(4)));
  }

  @Override
  public void saveProgress(long userId, String series, String chapter, int page, boolean chapterFinished,
      Instant now) throws StoreException {
    database.transaction(connection -> {
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
          markRead(connection, userId, series, chapter, now);
        }
      }
      return null;
    });
  }

  @Override
  public void setRead(long userId, String series, String chapter, boolean read, Instant now) throws StoreException {
    database.call(connection -> {
      if (read) {
        markRead(connection, userId, series, chapter, now);
        return null;
      }
      try (PreparedStatement delete = connection.prepareStatement(
          "DELETE FROM chapter_reads WHERE user_id = ? AND series = ? AND chapter = ?")) {
        delete.setLong(1, userId);
        delete.setString(2, series);
        delete.setString(3, chapter);
        delete.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public void markRead(long userId, String series, java.util.Collection<String> chapters, Instant now)
      throws StoreException {
    database.transaction(connection -> {
      for (String chapter : chapters) {
        markRead(connection, userId, series, chapter, now);
      }
      return null;
    });
  }

  @Override
  public void clearProgress(long userId, String series) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement delete = connection.prepareStatement(
          "DELETE FROM progress WHERE user_id = ? AND series = ?")) {
        delete.setLong(1, userId);
        delete.setString(2, series);
        delete.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Map<String, Instant> readTimes(long userId, String series) throws StoreException {
    return database.call(connection -> {
      Map<String, Instant> read = new HashMap<>();
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT chapter, read_at FROM chapter_reads WHERE user_id = ? AND series = ?")) {
        query.setLong(1, userId);
        query.setString(2, series);
        try (ResultSet row = query.executeQuery()) {
          while (row.next()) {
            read.put(row.getString(1), Instant.parse(row.getString(2)));
          }
        }
      }
      return read;
    });
  }

  private static void markRead(Connection connection, long userId, String series, String chapter, Instant now)
      throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT OR IGNORE INTO chapter_reads (user_id, series, chapter, read_at) VALUES (?, ?, ?, ?)")) {
      insert.setLong(1, userId);
      insert.setString(2, series);
      insert.setString(3, chapter);
      insert.setString(4, now.toString());
      insert.executeUpdate();
    }
  }

  @Override
  public Set<String> readChapters(long userId, String series) throws StoreException {
    return database.call(connection -> {
      Set<String> read = new HashSet<>();
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
    });
  }

  @Override
  public Map<String, Set<String>> readChapters(long userId) throws StoreException {
    return database.call(connection -> {
      Map<String, Set<String>> read = new HashMap<>();
      try (PreparedStatement query = connection.prepareStatement(
          "SELECT series, chapter FROM chapter_reads WHERE user_id = ?")) {
        query.setLong(1, userId);
        try (ResultSet row = query.executeQuery()) {
          while (row.next()) {
            read.computeIfAbsent(row.getString(1), s -> new HashSet<>()).add(row.getString(2));
          }
        }
      }
      return read;
    });
  }

  @Override
  public Optional<LibraryVisit> libraryVisit(long userId) throws StoreException {
    return database.call(connection -> {
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
    });
  }

  @Override
  public void saveLibraryVisit(long userId, LibraryVisit visit) throws StoreException {
    database.call(connection -> {
      try (PreparedStatement upsert = connection.prepareStatement(
          "INSERT INTO library_visits (user_id, since, last_at) VALUES (?, ?, ?)"
              + " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since, last_at = excluded.last_at")) {
        upsert.setLong(1, userId);
        upsert.setString(2, visit.since() == null ? null : visit.since().toString());
        upsert.setString(3, visit.lastAt().toString());
        upsert.executeUpdate();
      }
      return null;
    });
  }
}
