package io.mangacircus.launcher.migrate;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Copies one table's rows from SQLite into PostgreSQL in JDBC batches, every column verbatim (ids included), inside
 * the caller's target transaction; and moves the target's id sequences past the copied ids.
 */
final class TableRowsCopy {

  /** Rows per batch: large enough to amortise round trips, small enough to keep a batch's memory modest. */
  static final int BATCH = 1_000;

  private TableRowsCopy() {
  }

  /** Copies every row of {@code table}; returns how many. */
  static long copy(Connection source, Connection target, ReaderTable table) throws SQLException {
    String columns = table.columns().stream().map(ReaderTable::quoted).collect(Collectors.joining(", "));
    String marks = table.columns().stream().map(c -> "?").collect(Collectors.joining(", "));
    // Ids are kept: an identity column takes the given value (OVERRIDING SYSTEM VALUE is a no-op on other tables).
    String insert = "INSERT INTO " + ReaderTable.quoted(table.name()) + " (" + columns + ") OVERRIDING SYSTEM VALUE"
        + " VALUES (" + marks + ")";
    int width = table.columns().size();
    long rows = 0;
    try (Statement reading = source.createStatement();
        ResultSet result = reading.executeQuery("SELECT " + columns + " FROM " + ReaderTable.quoted(table.name()));
        PreparedStatement writing = target.prepareStatement(insert)) {
      int[] types = parameterTypes(writing.getParameterMetaData(), width);
      int pending = 0;
      while (result.next()) {
        for (int i = 1; i <= width; i++) {
          Object value = result.getObject(i);
          if (value == null) {
            writing.setNull(i, types[i - 1]);
          } else {
            writing.setObject(i, value, types[i - 1]);
          }
        }
        writing.addBatch();
        rows++;
        if (++pending == BATCH) {
          execute(writing);
          pending = 0;
        }
      }
      if (pending > 0) {
        execute(writing);
      }
    } catch (SQLException e) {
      throw new SQLException("table " + table.name() + " could not be copied: " + reason(e), e.getSQLState(), e);
    }
    return rows;
  }

  private static int[] parameterTypes(ParameterMetaData parameters, int width) throws SQLException {
    int[] types = new int[width];
    for (int i = 1; i <= width; i++) {
      types[i - 1] = parameters.getParameterType(i);
    }
    return types;
  }

  private static void execute(PreparedStatement writing) throws SQLException {
    writing.executeBatch();
    writing.clearBatch();
  }

  /** The driver's reason for a failed batch is its next exception; the batch's own message only says it failed. */
  private static String reason(SQLException e) {
    SQLException next = e instanceof BatchUpdateException ? e.getNextException() : null;
    return (next != null ? next : e).getMessage();
  }

  /**
   * Sets each id sequence of {@code tables} (identity or serial columns) to the largest copied id, or back to its
   * start when the table is empty, so that rows the reader creates next get new ids.
   */
  static void moveSequencesPastCopiedIds(Connection target, List<ReaderTable> tables) throws SQLException {
    List<String[]> generated = new ArrayList<>();
    try (Statement statement = target.createStatement();
        ResultSet rows = statement.executeQuery("SELECT table_name, column_name FROM information_schema.columns"
            + " WHERE table_schema = current_schema()"
            + " AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')")) {
      while (rows.next()) {
        generated.add(new String[] {rows.getString(1), rows.getString(2)});
      }
    }
    List<String> copied = tables.stream().map(ReaderTable::name).toList();
    for (String[] column : generated) {
      if (!copied.contains(column[0])) {
        continue;
      }
      String max = "(SELECT MAX(" + ReaderTable.quoted(column[1]) + ") FROM " + ReaderTable.quoted(column[0]) + ")";
      try (PreparedStatement statement = target.prepareStatement("SELECT setval(pg_get_serial_sequence(?, ?), COALESCE("
          + max + ", 1), " + max + " IS NOT NULL)")) {
        statement.setString(1, ReaderTable.quoted(column[0]));
        statement.setString(2, column[1]);
        statement.executeQuery().close();
      }
    }
  }
}
