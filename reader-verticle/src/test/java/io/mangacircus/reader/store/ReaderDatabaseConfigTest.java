package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code reader.database*} keys: SQLite by default, a PostgreSQL URL checked at load, the password kept out. */
class ReaderDatabaseConfigTest {

  @Test
  void withoutTheKeysTheReaderIsOnSqlite() {
    ReaderConfig config = new ReaderConfig("", 2000, "", 720, List.of());

    assertThat(config.databaseConfig()).isEqualTo(ReaderDatabaseConfig.DEFAULT);
    assertThat(config.databaseConfig().sqlite()).isTrue();
    assertThat(config.databaseConfig().problem()).isEmpty();
  }

  @Test
  void eachBadKeyIsNamed() {
    assertThat(new ReaderDatabaseConfig("mysql://x@y/z", "", "", 10).problem()).hasValueSatisfying(
        p -> assertThat(p).startsWith("reader.database: must be \"sqlite\" or a URL"));
    assertThat(new ReaderDatabaseConfig("postgresql://reader:pw@localhost/manga", "", "", 10).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("reader.database: a password in the URL"));
    assertThat(new ReaderDatabaseConfig("postgresql://reader@localhost/manga", "P", "/run/secrets/db", 10).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("reader.databasePasswordEnv: "));
    assertThat(new ReaderDatabaseConfig("postgresql://reader@localhost/manga", "", "", 0).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("reader.databasePoolSize: "));
    assertThat(new ReaderDatabaseConfig("sqlite", "P", "", 10).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("reader.databasePasswordEnv: only for a PostgreSQL"));
    assertThat(new ReaderDatabaseConfig("sqlite", "", "/run/secrets/db", 10).problem())
        .hasValueSatisfying(p -> assertThat(p).startsWith("reader.databasePasswordFile: only for a PostgreSQL"));
  }

  @Test
  void aPostgresqlUrlIsCheckedWithoutItsPasswordWhichIsReadAtStart() {
    ReaderDatabaseConfig config = new ReaderDatabaseConfig("postgresql://reader@db:5433/manga", "READER_DB", "", 4);

    assertThat(config.problem()).as("the variable is read at start, not at load").isEmpty();
    assertThat(config.target(Map.of("READER_DB", "pw-from-env")).password()).contains("pw-from-env");
    assertThat(config.target(Map.of("READER_DB", "pw-from-env")).poolSize()).isEqualTo(4);
  }

  @Test
  void theConfigsDescriptionShowsNeitherTheUserNorAnyPassword() {
    ReaderConfig config = new ReaderConfig("", 2000, "", 720, List.of(), List.of(), null, null,
        "postgresql://secret-user@db/manga", "READER_DB", "", 10);

    assertThat(config.toString()).contains("postgresql://<user>@db/manga").doesNotContain("secret-user");
  }
}
