package io.mangacircus.launcher.migrate;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Counts a table's rows and hashes them, the same Java code on either engine: rows in key order (text compared byte by
 * byte on both sides, as SQLite's BINARY and PostgreSQL's "C" collations do), each value written as a type tag (null,
 * integer, real, text, bytes) and its canonical bytes, so equal rows hash equal whatever the driver's Java types.
 */
public final class TableChecksum {

  /** Rows fetched per round trip on PostgreSQL (in a transaction it streams instead of holding the whole table). */
  private static final int FETCH_SIZE = 2_000;

  /** The engine a connection speaks, for the one thing that differs: how text keys are ordered byte by byte. */
  public enum Engine { SQLITE, POSTGRESQL }

  private TableChecksum() {
  }

  /** The digest of {@code table} on {@code connection}. */
  public static TableDigest of(Connection connection, Engine engine, ReaderTable table) throws SQLException {
    String columns = table.columns().stream().map(ReaderTable::quoted).collect(Collectors.joining(", "));
    String sql = "SELECT " + columns + " FROM " + ReaderTable.quoted(table.name()) + " ORDER BY "
        + orderBy(connection, engine, table);
    MessageDigest digest = sha256();
    long rows = 0;
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setFetchSize(FETCH_SIZE);
      try (ResultSet result = statement.executeQuery()) {
        int width = table.columns().size();
        while (result.next()) {
          for (int i = 1; i <= width; i++) {
            update(digest, result.getObject(i));
          }
          rows++;
        }
      }
    }
    return new TableDigest(table.name(), rows, HexFormat.of().formatHex(digest.digest()));
  }

  private static String orderBy(Connection connection, Engine engine, ReaderTable table) throws SQLException {
    Set<String> text = engine == Engine.POSTGRESQL ? postgresTextColumns(connection, table.name()) : Set.of();
    return table.orderColumns().stream().map(column -> ReaderTable.quoted(column) + switch (engine) {
      // BINARY is SQLite's byte-wise text order; a declared NOCASE on a key column would otherwise apply.
      case SQLITE -> " COLLATE BINARY";
      case POSTGRESQL -> text.contains(column) ? " COLLATE \"C\"" : "";
    }).collect(Collectors.joining(", "));
  }

  private static Set<String> postgresTextColumns(Connection connection, String table) throws SQLException {
    Set<String> text = new HashSet<>();
    try (PreparedStatement statement = connection.prepareStatement("SELECT column_name FROM information_schema.columns"
        + " WHERE table_schema = current_schema() AND table_name = ?"
        + " AND data_type IN ('text', 'character varying', 'character')")) {
      statement.setString(1, table);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          text.add(rows.getString(1));
        }
      }
    }
    return text;
  }

  /** Feeds one value: a tag, then the value's canonical bytes with their length, so no two rows run together. */
  static void update(MessageDigest digest, Object value) {
    if (value == null) {
      digest.update((byte) 'N');
      return;
    }
    char tag;
    byte[] bytes;
    if (value instanceof Boolean flag) {
      tag = 'I';
      bytes = ascii(flag ? "1" : "0");
    } else if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long
        || value instanceof BigInteger) {
      tag = 'I';
      bytes = ascii(value.toString());
    } else if (value instanceof BigDecimal decimal && decimal.stripTrailingZeros().scale() <= 0) {
      tag = 'I';
      bytes = ascii(decimal.toBigIntegerExact().toString());
    } else if (value instanceof Number number) {
      tag = 'R';
      bytes = ascii(Double.toString(number.doubleValue()));
    } else if (value instanceof byte[] raw) {
      tag = 'B';
      bytes = raw;
    } else {
      tag = 'T';
      bytes = value.toString().getBytes(StandardCharsets.UTF_8);
    }
    digest.update((byte) tag);
    digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    digest.update(bytes);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** The digests of {@code tables}, in their order. */
  public static List<TableDigest> all(Connection connection, Engine engine, List<ReaderTable> tables)
      throws SQLException {
    List<TableDigest> digests = new java.util.ArrayList<>();
    for (ReaderTable table : tables) {
      digests.add(of(connection, engine, table));
    }
    return List.copyOf(digests);
  }
}
