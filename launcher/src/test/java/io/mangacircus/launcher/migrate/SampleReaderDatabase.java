package io.mangacircus.launcher.migrate;

import io.mangacircus.reader.store.ReaderStores;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;

/**
 * A {@code reader.db} made by the reader's own code (schema and migrations), then filled fast with batched inserts:
 * {@code users} users, each with {@code progressPerUser} progress rows and rows in every other reader table, values
 * of every kind (nulls, integers, reals, text with non-ASCII letters) included.
 */
public final class SampleReaderDatabase {

  /** Series ids mix cases and a letter outside ASCII, so that key order is byte order on both engines. */
  /** The sample collection cover's bytes, in hex: a PNG signature, then bytes no text encoding keeps. */
  public static final String COVER_HEX = "89504E470D0A1A0A00FF80C3";

  private static final String[] SERIES_PREFIX = {"series-", "Series-", "série-"};

  private SampleReaderDatabase() {
  }

  /** Writes the sample; user ids run from 1 to {@code users}, named {@code user1}, {@code user2}, .... */
  public static void write(Path file, int users, int progressPerUser) throws Exception {
    try (ReaderStores stores = ReaderStores.openSqlite(file)) {
      stores.users();
    }
    Instant base = Instant.parse("2026-11-01T08:00:00Z");
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      db.setAutoCommit(false);
      try (PreparedStatement user = db.prepareStatement("INSERT INTO users (id, username, password_hash, role,"
              + " disabled, created_at, app_passwords_ended_at, app_passwords_ended, access_libraries, age_limit,"
              + " unrated_shown) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
          PreparedStatement progress = db.prepareStatement(
              "INSERT INTO progress (user_id, series, chapter, page, updated_at) VALUES (?, ?, ?, ?, ?)");
          PreparedStatement settings = db.prepareStatement("INSERT INTO reading_settings (user_id, series, layout,"
              + " direction, fit, page_offset, crop, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
        for (int id = 1; id <= users; id++) {
          Instant created = base.plusSeconds(id);
          user.setLong(1, id);
          user.setString(2, "user" + id);
          user.setString(3, "$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$" + id);
          user.setString(4, id == 1 ? "admin" : "reader");
          user.setInt(5, id % 97 == 0 ? 1 : 0);
          user.setString(6, created.toString());
          user.setString(7, id % 10 == 0 ? created.plusSeconds(60).toString() : null);
          user.setInt(8, id % 10 == 0 ? 2 : 0);
          user.setString(9, id % 7 == 0 ? "Manga,Comics" : null);
          user.setString(10, id % 7 == 0 ? "15" : "none");
          user.setInt(11, id % 2);
          user.addBatch();
          for (int p = 0; p < progressPerUser; p++) {
            progress.setLong(1, id);
            progress.setString(2, series(p));
            progress.setString(3, "ch-" + (p % 13));
            progress.setInt(4, p % 40);
            progress.setString(5, base.plusMillis(id * 1_000L + p).toString());
            progress.addBatch();
          }
          settings.setLong(1, id);
          settings.setString(2, "");
          settings.setString(3, "strip");
          settings.setString(4, "rtl");
          settings.setString(5, "width");
          settings.setInt(6, 1);
          settings.setInt(7, 0);
          settings.setString(8, created.toString());
          settings.addBatch();
          settings.setLong(1, id);
          settings.setString(2, series(0));
          settings.setString(3, "double");
          settings.setString(4, "ltr");
          settings.setString(5, "height");
          settings.setInt(6, 0);
          settings.setInt(7, 1);
          settings.setString(8, created.toString());
          settings.addBatch();
          if (id % 100 == 0) {
            user.executeBatch();
            progress.executeBatch();
            settings.executeBatch();
          }
        }
        user.executeBatch();
        progress.executeBatch();
        settings.executeBatch();
      }
      try (Statement other = db.createStatement()) {
        int some = Math.min(users, 3);
        for (int id = 1; id <= some; id++) {
          String at = base.plusSeconds(3_600L * id).toString();
          other.addBatch("INSERT INTO sessions VALUES ('hash" + id + "', " + id + ", 'csrf" + id + "', '" + at
              + "', '2027-01-01T00:00:00Z')");
          other.addBatch("INSERT INTO chapter_reads VALUES (" + id + ", 'series-1', 'ch-" + id + "', '" + at + "')");
          other.addBatch("INSERT INTO app_passwords (id, user_id, name, lookup, password_hash, created_at,"
              + " last_used_at, scope, sync_key) VALUES (" + (40 + id) + ", " + id + ", 'Panels', 'look" + id + "', 'h', '" + at
              + "', " + (id == 1 ? "NULL" : "'" + at + "'") + ", 'read+progress', " + (id == 2 ? "'key'" : "NULL")
              + ")");
          other.addBatch("INSERT INTO alert_targets VALUES (" + id + ", 'ntfy', 'https://ntfy.example', 'topic"
              + id + "', 'tok', '" + at + "')");
          other.addBatch("INSERT INTO series_alerts VALUES (" + id + ", 'series-2', '" + at + "')");
          other.addBatch("INSERT INTO library_visits VALUES (" + id + ", " + (id == 1 ? "NULL" : "'" + at + "'")
              + ", '" + at + "')");
          other.addBatch("INSERT INTO kosync_documents VALUES ('doc" + id + "', 'series-1', 'ch-" + id
              + "', 'binary', '" + at + "')");
          other.addBatch("INSERT INTO kosync_pushes VALUES (" + id + ", 'doc" + id + "', '/body/DocFragment[" + id
              + "]', " + (0.1 * id + 1.0 / 3) + ", 'KOReader', 'dev" + id + "', '" + at + "')");
          other.addBatch("INSERT INTO tracker_accounts VALUES (" + id + ", 'anilist', 'sealed', NULL, NULL, 'acc"
              + id + "', 'Ann', 0, '', '" + at + "')");
          other.addBatch("INSERT INTO tracker_links VALUES (" + id + ", 'anilist', 'series-1', '" + (100 + id)
              + "', 'Title', 1, NULL, " + id + ", 'CURRENT', NULL, NULL, NULL, '', NULL, '" + at + "')");
          other.addBatch("INSERT INTO tracker_outbox (user_id, tracker, series, due_ms, attempts, version,"
              + " last_error, created_at, claimed_until_ms) VALUES (" + id + ", 'anilist', 'series-1', "
              + (1_790_000_000_000L + id) + ", 1, " + id + ", '', '" + at + "', " + (id == 2 ? 1_790_000_600_000L : 0)
              + ")");
        }
        other.addBatch("INSERT INTO series_merges VALUES ('series-9', 'series-1', '" + base + "')");
        other.addBatch("UPDATE tracker_outbox_version SET last = 42");
        other.executeBatch();
        // The catalog (schema 15), where the reader's schema has it: a cover's bytes are a BLOB.
        if (hasTable(db, "catalog_series")) {
          other.execute("INSERT INTO catalog_series VALUES ('series-1', 'Under canvas.', '[\"circus\",\"night\"]',"
              + " '12'), ('série-2', '', '[]', NULL)");
          other.execute("INSERT INTO catalog_collections VALUES ('favourites', 'Favourites', '[\"series-1\"]', 1),"
              + " ('attic', 'Attic', '[]', 2)");
          other.execute("INSERT INTO catalog_covers VALUES ('favourites', 'png', " + "X'" + COVER_HEX + "')");
        }
        // Sign-in identities (schema 13), where the reader's schema has them.
        if (hasTable(db, "user_identities")) {
          other.execute("INSERT INTO user_identities (issuer, subject, user_id, linked_at) VALUES"
              + " ('https://sso.example', 'sub-1', 1, '" + base + "')");
        }
      }
      db.commit();
    }
  }

  private static boolean hasTable(Connection db, String name) throws SQLException {
    try (PreparedStatement query = db.prepareStatement(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
      query.setString(1, name);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next();
      }
    }
  }

  /** The series of a user's {@code p}-th progress row. */
  public static String series(int p) {
    return SERIES_PREFIX[p % SERIES_PREFIX.length] + p;
  }

  /** Runs {@code sql} on a SQLite file, for tests that change the sample. */
  public static void execute(Path file, String sql) throws SQLException {
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = db.createStatement()) {
      statement.execute(sql);
    }
  }
}
