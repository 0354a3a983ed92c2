package io.mangacircus.launcher.migrate;

/**
 * What a table holds, in short: its row count and the SHA-256 (hex) of its rows in key order, each value
 * normalised so that the same row gives the same bytes in SQLite and in PostgreSQL.
 */
public record TableDigest(String table, long rows, String checksum) {

  /** The checksum's first 12 hex digits, as the command prints it. */
  public String shortChecksum() {
    return checksum.substring(0, Math.min(12, checksum.length()));
  }
}
