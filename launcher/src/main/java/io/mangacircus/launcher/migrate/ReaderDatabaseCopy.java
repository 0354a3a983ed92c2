package io.mangacircus.launcher.migrate;

import io.mangacircus.launcher.migrate.TableChecksum.Engine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Copies a reader database from SQLite into PostgreSQL, both already at the same schema version: every reader table
 * in foreign-key order, in one target transaction, then compares each table's row count and checksum on both sides
 * before committing. A target that already holds exactly the source's rows is left alone; a target holding other
 * rows is refused unless emptying it was asked for. Blocking JDBC, for a one-shot command.
 */
public final class ReaderDatabaseCopy {

  /** How long the copy waits for a table another session of the target holds, before failing (PostgreSQL interval). */
  static final String LOCK_TIMEOUT = "10s";

  private final Connection source;
  private final Connection target;

  /**
   * @param source the SQLite {@code reader.db}, read only
   * @param target the PostgreSQL database, written in one transaction
   */
  public ReaderDatabaseCopy(Connection source, Connection target) {
    this.source = source;
    this.target = target;
  }

  /**
   * Copies unless the target already holds the source's rows.
   *
   * @param replace empty the target's reader tables first when they hold other rows
   * @throws SQLException when either database fails (nothing is then written: the target transaction rolls back)
   */
  public CopyOutcome run(boolean replace) throws SQLException {
    List<ReaderTable> tables = ReaderTables.inSqlite(source);
    String difference = schemaDifference(tables);
    if (difference != null) {
      return new CopyOutcome.SchemaDiffers(difference);
    }
    boolean sourceAutoCommit = source.getAutoCommit();
    boolean targetAutoCommit = target.getAutoCommit();
    // One read transaction on the source: checksums and copy see the same rows.
    source.setAutoCommit(false);
    target.setAutoCommit(false);
    try {
      CopyOutcome outcome = copyInTransaction(tables, replace);
      if (outcome instanceof CopyOutcome.Copied) {
        target.commit();
      } else {
        target.rollback();
      }
      return outcome;
    } catch (SQLException | RuntimeException e) {
      target.rollback();
      throw e;
    } finally {
      source.rollback();
      source.setAutoCommit(sourceAutoCommit);
      target.setAutoCommit(targetAutoCommit);
    }
  }

  private CopyOutcome copyInTransaction(List<ReaderTable> tables, boolean replace) throws SQLException {
    String names = tables.stream().map(t -> ReaderTable.quoted(t.name())).collect(Collectors.joining(", "));
    try (Statement statement = target.createStatement()) {
      statement.execute("SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'");
      // No reader writes between the comparison and the copy; reads go on until the copy empties the tables.
      statement.execute("LOCK TABLE " + names + " IN EXCLUSIVE MODE");
    }
    List<TableDigest> inSource = TableChecksum.all(source, Engine.SQLITE, tables);
    List<TableDigest> inTarget = TableChecksum.all(target, Engine.POSTGRESQL, tables);
    if (inSource.equals(inTarget)) {
      return new CopyOutcome.AlreadyCopied(inSource);
    }
    if (!replace && holdsRows(tables, inTarget)) {
      return new CopyOutcome.TargetNotEmpty(inSource, inTarget);
    }
    try (Statement statement = target.createStatement()) {
      // Counters the migrations seed are emptied too: the source's own values replace them.
      statement.execute("TRUNCATE " + names);
    }
    for (ReaderTable table : tables) {
      TableRowsCopy.copy(source, target, table);
    }
    TableRowsCopy.moveSequencesPastCopiedIds(target, tables);
    List<TableDigest> copied = TableChecksum.all(target, Engine.POSTGRESQL, tables);
    for (int i = 0; i < tables.size(); i++) {
      if (!copied.get(i).equals(inSource.get(i))) {
        return new CopyOutcome.VerifyFailed(inSource.get(i), copied.get(i));
      }
    }
    return new CopyOutcome.Copied(inSource);
  }

  /** Whether any table but a seeded counter holds a row. */
  private static boolean holdsRows(List<ReaderTable> tables, List<TableDigest> digests) {
    for (int i = 0; i < tables.size(); i++) {
      if (!tables.get(i).counter() && digests.get(i).rows() > 0) {
        return true;
      }
    }
    return false;
  }

  /** What the target's reader tables lack or have beyond the source's, or null when they have the same columns. */
  private String schemaDifference(List<ReaderTable> tables) throws SQLException {
    Map<String, Set<String>> targetColumns = postgresColumns();
    List<String> problems = new ArrayList<>();
    Set<String> extra = new TreeSet<>(targetColumns.keySet());
    for (ReaderTable table : tables) {
      extra.remove(table.name());
      Set<String> columns = targetColumns.get(table.name());
      if (columns == null) {
        problems.add("the target has no table " + table.name());
      } else if (!columns.equals(new TreeSet<>(table.columns()))) {
        problems.add("table " + table.name() + " has the columns " + columns + " in the target, "
            + new TreeSet<>(table.columns()) + " in the source");
      }
    }
    extra.forEach(name -> problems.add("the target has a table " + name + " the source does not"));
    return problems.isEmpty() ? null : String.join("; ", problems);
  }

  private Map<String, Set<String>> postgresColumns() throws SQLException {
    Map<String, Set<String>> columns = new TreeMap<>();
    try (PreparedStatement statement = target.prepareStatement("SELECT c.table_name, c.column_name"
        + " FROM information_schema.columns c JOIN information_schema.tables t"
        + " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
        + " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'");
        ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        String table = rows.getString(1);
        if (ReaderTables.isReaderTable(table)) {
          columns.computeIfAbsent(table, t -> new TreeSet<>()).add(rows.getString(2));
        }
      }
    }
    return columns;
  }
}
