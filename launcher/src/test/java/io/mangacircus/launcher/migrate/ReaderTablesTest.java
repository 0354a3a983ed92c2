package io.mangacircus.launcher.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.ReaderStores;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tables {@code migrate-db} copies, as found in a reader.db the reader made. */
class ReaderTablesTest {

  @TempDir
  Path folder;

  @Test
  void everyTableComesAfterTheTablesItReferencesAndBookkeepingIsLeftOut() throws Exception {
    Path file = folder.resolve("reader.db");
    try (ReaderStores stores = ReaderStores.openSqlite(file)) {
      stores.users();
    }
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      List<ReaderTable> tables = ReaderTables.inSqlite(sqlite);
      List<String> names = tables.stream().map(ReaderTable::name).toList();

      assertThat(names).contains("users", "sessions", "progress", "app_passwords", "reading_settings",
          "tracker_outbox_version", "series_merges", "kosync_documents")
          .doesNotContain("schema_version", "flyway_schema_history")
          .noneMatch(name -> name.startsWith("sqlite_"));
      for (ReaderTable table : tables) {
        for (String referenced : table.references()) {
          assertThat(names.indexOf(referenced)).as("%s references %s", table.name(), referenced)
              .isLessThan(names.indexOf(table.name()));
        }
      }
      assertThat(tables.stream().filter(t -> t.name().equals("progress")).findFirst().orElseThrow())
          .satisfies(progress -> {
            assertThat(progress.references()).containsExactly("users");
            assertThat(progress.orderColumns()).containsExactly("user_id", "series");
            assertThat(progress.counter()).isFalse();
          });
    }
  }

  @Test
  void aTableWithoutAPrimaryKeyIsACounterOrderedByEveryColumn() throws Exception {
    Path file = folder.resolve("reader.db");
    try (ReaderStores stores = ReaderStores.openSqlite(file)) {
      stores.users();
    }
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      ReaderTable counter = ReaderTables.inSqlite(sqlite).stream()
          .filter(t -> t.name().equals("tracker_outbox_version")).findFirst().orElseThrow();

      assertThat(counter.counter()).isTrue();
      assertThat(counter.orderColumns()).containsExactly("last");
    }
  }
}
