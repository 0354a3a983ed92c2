package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.pg.PgDatabase;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two engines' schemas at the same version hold the same tables and columns, in the same order, with types that
 * keep each value as it is (so that rows copy verbatim from one to the other), and PostgreSQL refuses no less NULLs.
 */
class SchemaParityTest {

  /** What each SQLite column type is in PostgreSQL. */
  private static final Map<String, List<String>> TYPES = Map.of(
      "TEXT", List.of("text"),
      "INTEGER", List.of("integer", "bigint"),
      "REAL", List.of("double precision"),
      "BLOB", List.of("bytea"));

  @TempDir
  Path dir;

  /** A column: its table, its name, its type as the engine names it, and whether it refuses NULL. */
  private record Column(String table, String name, String type, boolean notNull) {

    String where() {
      return table + "." + name;
    }
  }

  @Test
  void bothEnginesHaveTheSameTablesAndColumnsInTheSameOrderWithMatchingTypes() throws Exception {
    Path file = dir.resolve("reader.db");
    SqliteDatabase.open(file).close();
    TestPostgres.Database database = TestPostgres.freshDatabase();
    Vertx vertx = Vertx.vertx();
    try {
      PgDatabase.open(vertx, StoreEngines.target(database)).close();
    } finally {
      vertx.close().await();
    }

    List<Column> sqlite = sqliteColumns(file);
    List<Column> postgres = postgresColumns(database);

    assertThat(postgres).extracting(Column::where).containsExactlyElementsOf(
        sqlite.stream().map(Column::where).toList());
    for (int i = 0; i < sqlite.size(); i++) {
      Column lite = sqlite.get(i);
      Column pg = postgres.get(i);
      assertThat(TYPES.get(lite.type())).as(lite.where() + " " + lite.type()).contains(pg.type());
      if (lite.notNull()) {
        assertThat(pg.notNull()).as(lite.where() + " is NOT NULL in SQLite").isTrue();
      }
    }
  }

  private static List<Column> sqliteColumns(Path file) throws SQLException {
    List<Column> columns = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement sql = connection.createStatement();
        ResultSet row = sql.executeQuery("SELECT m.name, c.name, c.type, c.\"notnull\" FROM sqlite_master m"
            + " JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND m.name NOT IN ('schema_version',"
            + " 'flyway_schema_history') AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid")) {
      while (row.next()) {
        columns.add(new Column(row.getString(1), row.getString(2), row.getString(3), row.getInt(4) == 1));
      }
    }
    return columns;
  }

  private static List<Column> postgresColumns(TestPostgres.Database database) throws SQLException {
    List<Column> columns = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.user(),
        database.password());
        Statement sql = connection.createStatement();
        ResultSet row = sql.executeQuery("SELECT table_name, column_name, data_type, is_nullable"
            + " FROM information_schema.columns WHERE table_schema = 'public'"
            + " AND table_name <> 'flyway_schema_history' ORDER BY table_name COLLATE \"C\", ordinal_position")) {
      while (row.next()) {
        columns.add(new Column(row.getString(1), row.getString(2), row.getString(3),
            row.getString(4).equals("NO")));
      }
    }
    return columns;
  }
}
