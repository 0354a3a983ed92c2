package io.mangacircus.launcher.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.migrate.TableChecksum.Engine;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-table checksum: equal rows hash equal whatever Java type a driver hands out, different rows do not. */
class TableChecksumTest {

  @TempDir
  Path folder;

  @Test
  void theSameValueHashesEqualWhateverJavaTypeTheDriverUses() {
    assertThat(hash(5)).isEqualTo(hash(5L)).isEqualTo(hash(new BigDecimal("5.00"))).isEqualTo(hash((short) 5));
    assertThat(hash(true)).isEqualTo(hash(1));
    assertThat(hash(0.5d)).isEqualTo(hash(new BigDecimal("0.5")));
  }

  @Test
  void differentRowsHashDifferently() {
    assertThat(hash("ab", "c")).isNotEqualTo(hash("a", "bc"));
    assertThat(hash((Object) null)).isNotEqualTo(hash(""));
    assertThat(hash(1)).isNotEqualTo(hash("1"));
    assertThat(hash(1)).isNotEqualTo(hash(1.0d));
    assertThat(hash("série")).isNotEqualTo(hash("serie"));
  }

  @Test
  void rowsAreHashedInKeyOrderWhateverOrderTheyWereWrittenIn() throws Exception {
    ReaderTable table = new ReaderTable("t", List.of("k", "v"), List.of("k"), List.of(), false);
    String first = digest(folder.resolve("a.db"), "('b', 2), ('a', 1), ('B', 3)", table);
    String second = digest(folder.resolve("b.db"), "('B', 3), ('a', 1), ('b', 2)", table);
    String other = digest(folder.resolve("c.db"), "('B', 3), ('a', 1), ('b', 4)", table);

    assertThat(first).isEqualTo(second).isNotEqualTo(other);
  }

  private static String digest(Path file, String rows, ReaderTable table) throws Exception {
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = sqlite.createStatement()) {
      statement.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
      statement.execute("INSERT INTO t VALUES " + rows);
      TableDigest digest = TableChecksum.of(sqlite, Engine.SQLITE, table);
      assertThat(digest.rows()).isEqualTo(3);
      return digest.checksum();
    }
  }

  private static String hash(Object... row) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      Arrays.stream(row).forEach(value -> TableChecksum.update(digest, value));
      return HexFormat.of().formatHex(digest.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
