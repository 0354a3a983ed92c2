package io.mangacircus.launcher.migrate;

import java.util.List;

/**
 * One reader table as {@code migrate-db} copies it: its columns in the source's order, the columns its rows are
 * ordered by (its primary key, or every column when it has none) and the tables it references.
 *
 * @param counter a table without a primary key: a counter the migrations seed (one row from the start), so its
 *     rows do not make a target "not empty"
 */
public record ReaderTable(String name, List<String> columns, List<String> orderColumns, List<String> references,
    boolean counter) {

  public ReaderTable {
    columns = List.copyOf(columns);
    orderColumns = List.copyOf(orderColumns);
    references = List.copyOf(references);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("table " + name + " has no columns");
    }
  }

  /** {@code name} quoted as an SQL identifier (the same syntax in SQLite and PostgreSQL). */
  static String quoted(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
