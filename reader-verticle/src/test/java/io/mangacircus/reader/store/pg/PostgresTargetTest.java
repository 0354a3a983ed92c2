package io.mangacircus.reader.store.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reader.database} as a PostgreSQL URL, and its password from the environment or a file, never shown. */
class PostgresTargetTest {

  private static final String SECRET = "s3cret-Pa55";

  @TempDir
  Path dir;

  @Test
  void aUrlNamesHostPortDatabaseUserAndSslMode() {
    PostgresTarget target = PostgresTarget.parse("postgresql://reader@db.example.org:6543/manga?sslmode=require",
        null, null, 7, Map.of());

    assertThat(target.host()).isEqualTo("db.example.org");
    assertThat(target.port()).isEqualTo(6543);
    assertThat(target.database()).isEqualTo("manga");
    assertThat(target.user()).isEqualTo("reader");
    assertThat(target.sslMode()).isEqualTo(PostgresTarget.SslMode.REQUIRE);
    assertThat(target.poolSize()).isEqualTo(7);
    assertThat(target.password()).isEmpty();
  }

  @Test
  void thePostgresSchemeThePortAndTheSslModeHaveDefaults() {
    PostgresTarget target = PostgresTarget.parse("postgres://reader@localhost/manga", null, null, 10, Map.of());

    assertThat(target.port()).isEqualTo(5432);
    assertThat(target.sslMode()).isEqualTo(PostgresTarget.SslMode.DISABLE);
  }

  @Test
  void aPasswordInTheUrlIsRefusedWithoutRepeatingIt() {
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader:" + SECRET + "@localhost/manga", null, null,
        10, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reader.database: a password in the URL would be logged and kept in the config; use"
            + " reader.databasePasswordEnv or reader.databasePasswordFile");
  }

  @Test
  void aMalformedUrlWithAPasswordIsRefusedWithoutRepeatingIt() {
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader:" + SECRET + "@local host/manga", null, null,
        10, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("reader.database: ")
        .hasMessageNotContaining(SECRET);
  }

  @Test
  void parametersOtherThanSslModeAreRefusedByName() {
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/manga?sslmode=disable&password=x",
        null, null, 10, Map.of()))
        .hasMessage("reader.database: the URL parameter \"password\" is not supported (only sslmode=disable|require"
            + " is)");
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/manga?sslmode=verify-full", null,
        null, 10, Map.of()))
        .hasMessage("reader.database: sslmode \"verify-full\" is not supported (disable or require)");
  }

  @Test
  void aUrlWithoutAHostOrADatabaseIsRefused() {
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/", null, null, 10, Map.of()))
        .hasMessageContaining("reader.database: the URL names no database");
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql:///manga", null, null, 10, Map.of()))
        .hasMessageContaining("reader.database: the URL names no host");
  }

  @Test
  void thePasswordComesFromTheNamedEnvironmentVariable() {
    PostgresTarget target = PostgresTarget.parse("postgresql://reader@localhost/manga", "READER_DB_PASSWORD", null,
        10, Map.of("READER_DB_PASSWORD", SECRET));

    assertThat(target.password()).contains(SECRET);
  }

  @Test
  void anEnvironmentVariableThatIsNotSetIsNamed() {
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/manga", "READER_DB_PASSWORD", null,
        10, Map.of()))
        .hasMessage("reader.databasePasswordEnv: the environment variable READER_DB_PASSWORD is not set or empty");
  }

  @Test
  void thePasswordComesFromTheFileWithoutItsTrailingNewline() throws Exception {
    Path file = dir.resolve("db-password");
    Files.writeString(file, SECRET + "\n");

    PostgresTarget target = PostgresTarget.parse("postgresql://reader@localhost/manga", null, file.toString(), 10,
        Map.of());

    assertThat(target.password()).contains(SECRET);
  }

  @Test
  void aPasswordFileThatCannotBeReadIsNamed() {
    Path missing = dir.resolve("no-such-file");

    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/manga", null, missing.toString(), 10,
        Map.of()))
        .hasMessage("reader.databasePasswordFile: the file " + missing + " cannot be read (NoSuchFileException)");
  }

  @Test
  void bothPasswordSourcesAtOnceAreRefused() {
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/manga", "A", "/b", 10,
        Map.of("A", SECRET)))
        .hasMessage("reader.databasePasswordFile: give either databasePasswordEnv or databasePasswordFile, not both");
  }

  @Test
  void aPoolSizeOutsideItsRangeIsNamed() {
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/manga", null, null, 0, Map.of()))
        .hasMessageStartingWith("reader.databasePoolSize: ");
    assertThatThrownBy(() -> PostgresTarget.parse("postgresql://reader@localhost/manga", null, null, 101, Map.of()))
        .hasMessageStartingWith("reader.databasePoolSize: ");
  }

  @Test
  void thePasswordIsNeverInTheDescription() {
    PostgresTarget target = PostgresTarget.parse("postgresql://reader@localhost/manga", "P", null, 10,
        Map.of("P", SECRET));

    assertThat(target.toString()).doesNotContain(SECRET).contains("(redacted)").contains("localhost:5432/manga");
    assertThat(target.describe()).doesNotContain(SECRET).doesNotContain("reader@");
  }
}
