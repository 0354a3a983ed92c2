package io.mangacircus.launcher.migrate;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reader's tables in a SQLite {@code reader.db}, found in the file itself (so a table a newer migration adds is
 * copied without a change here), in foreign-key order: every table after the tables it references. Leaves out
 * SQLite's own tables and the migrations' bookkeeping, which each engine keeps for itself.
 */
public final class ReaderTables {

  /** Tables that record which migrations ran: each database has its own, never copied. */
  static final Set<String> BOOKKEEPING = Set.of("flyway_schema_history", "schema_version");

  private ReaderTables() {
  }

  /** Whether a table holds reader data (rather than an engine's or the migrations' bookkeeping). */
  static boolean isReaderTable(String name) {
    return !BOOKKEEPING.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith("sqlite_");
  }

  /**
   * The reader tables of a SQLite database, each after those it references.
   *
   * @throws SQLException when the file cannot be read, or its references form a cycle (no reader schema has one)
   */
  public static List<ReaderTable> inSqlite(Connection sqlite) throws SQLException {
    Map<String, ReaderTable> byName = new TreeMap<>();
    for (String name : tableNames(sqlite)) {
      byName.put(name, describe(sqlite, name));
    }
    return inReferenceOrder(byName);
  }

  private static List<String> tableNames(Connection sqlite) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Statement statement = sqlite.createStatement();
        ResultSet rows = statement.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      while (rows.next()) {
        String name = rows.getString(1);
        if (isReaderTable(name)) {
          names.add(name);
        }
      }
    }
    return names;
  }

  private static ReaderTable describe(Connection sqlite, String name) throws SQLException {
    List<String> columns = new ArrayList<>();
    Map<Integer, String> key = new TreeMap<>();
    try (Statement statement = sqlite.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA table_info(" + ReaderTable.quoted(name) + ")")) {
      while (rows.next()) {
        String column = rows.getString("name");
        columns.add(column);
        int keyPosition = rows.getInt("pk");
        if (keyPosition > 0) {
          key.put(keyPosition, column);
        }
      }
    }
    Set<String> references = new LinkedHashSet<>();
    try (Statement statement = sqlite.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA foreign_key_list(" + ReaderTable.quoted(name) + ")")) {
      while (rows.next()) {
        String referenced = rows.getString("table");
        if (!referenced.equals(name)) {
          references.add(referenced);
        }
      }
    }
    boolean counter = key.isEmpty();
    return new ReaderTable(name, columns, counter ? columns : List.copyOf(key.values()), List.copyOf(references),
        counter);
  }

  /** Depth-first, each table after those it references; otherwise in alphabetical order, so the order is stable. */
  private static List<ReaderTable> inReferenceOrder(Map<String, ReaderTable> byName) throws SQLException {
    Map<String, ReaderTable> ordered = new LinkedHashMap<>();
    Set<String> visiting = new LinkedHashSet<>();
    for (String name : byName.keySet()) {
      visit(name, byName, ordered, visiting);
    }
    return List.copyOf(ordered.values());
  }

  private static void visit(String name, Map<String, ReaderTable> byName, Map<String, ReaderTable> ordered,
      Set<String> visiting) throws SQLException {
    if (ordered.containsKey(name)) {
      return;
    }
    ReaderTable table = byName.get(name);
    if (table == null) {
      throw new SQLException("a table references " + name + ", which the database does not have");
    }
    if (!visiting.add(name)) {
      throw new SQLException("the tables " + visiting + " reference each other in a cycle");
    }
    for (String referenced : table.references()) {
      visit(referenced, byName, ordered, visiting);
    }
    visiting.remove(name);
    ordered.put(name, table);
  }
}
