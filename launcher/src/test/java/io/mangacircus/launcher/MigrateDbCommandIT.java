package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.lock.ProcessLock;
import io.mangacircus.launcher.migrate.ReaderTable;
import io.mangacircus.launcher.migrate.SampleReaderDatabase;
import io.mangacircus.launcher.migrate.TableChecksum;
import io.mangacircus.launcher.migrate.TableDigest;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.ReadingSettings;
import io.mangacircus.reader.store.pg.PgDatabase;
import io.mangacircus.reader.store.pg.PostgresTarget;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code migrate-db} from a real reader.db into a real PostgreSQL server: the acceptance round trip (1,000 users,
 * 100,000 progress rows, every table), a re-run that writes nothing, a target with other rows refused and then
 * replaced, and the failures that write nothing (bad URL, wrong password, no server, not a reader database, a reader
 * running).
 */
class MigrateDbCommandIT {

  private static final String PASSWORD_VARIABLE = "MC_TEST_DB_PASSWORD";

  @TempDir
  static Path shared;

  @TempDir
  Path folder;

  private static Path big;
  private static Vertx vertx;

  @BeforeAll
  static void bigSource() throws Exception {
    big = shared.resolve("big").resolve("reader.db");
    long start = System.nanoTime();
    SampleReaderDatabase.write(big, 1_000, 100);
    System.out.printf("MigrateDbCommandIT: the 1,000-user sample written in %d ms%n",
        Duration.ofNanos(System.nanoTime() - start).toMillis());
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void closeVertx() {
    vertx.close();
  }

  @Test
  void aThousandUsersAndAHundredThousandProgressRowsAreCopiedVerifiedReadBackAndARerunWritesNothing()
      throws Exception {
    TestPostgres.Database db = TestPostgres.freshDatabase();

    long start = System.nanoTime();
    Run copy = run(db, "--from", big.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);
    System.out.printf("MigrateDbCommandIT: 1,000 users and 100,000 progress rows copied and verified in %d ms%n",
        Duration.ofNanos(System.nanoTime() - start).toMillis());

    assertThat(copy.exit()).as(copy.toString()).isZero();
    assertThat(copy.out()).containsPattern("(?m)^users\\s+1000\\s+[0-9a-f]{12}$")
        .containsPattern("(?m)^progress\\s+100000\\s+[0-9a-f]{12}$")
        .containsPattern("(?m)^reading_settings\\s+2000\\s+[0-9a-f]{12}$")
        .containsPattern("(?m)^verified: \\d+ tables, \\d+ rows; PostgreSQL localhost:\\d+/" + db.name());
    List<String> emptyTables = emptyTables(db);
    assertThat(emptyTables).as("every reader table had rows to copy (add rows to SampleReaderDatabase for a new one)")
        .isEmpty();
    assertThat(copy.out() + copy.err()).doesNotContain(db.password());

    List<TableDigest> copied = targetDigests(db);
    Run again = run(db, "--from", big.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);

    assertThat(again.exit()).as(again.toString()).isZero();
    assertThat(again.out()).contains("already copied; nothing written").doesNotContain("verified");
    assertThat(targetDigests(db)).as("the target after the re-run").isEqualTo(copied);

    PostgresTarget target = PostgresTarget.parse(db.url(), PASSWORD_VARIABLE, null, 2, environment(db));
    try (ReaderStores stores = ReaderStores.openPostgres(vertx, target)) {
      assertThat(stores.users().user("user500")).hasValueSatisfying(user -> assertThat(user.id()).isEqualTo(500));
      assertThat(stores.progress().progress(500, SampleReaderDatabase.series(7)))
          .hasValue(new Progress(SampleReaderDatabase.series(7), "ch-7", 7,
              Instant.parse("2026-11-01T08:00:00Z").plusMillis(500_007)));
      assertThat(stores.progress().progress(500)).hasSize(100);
      assertThat(stores.users().createUser("newcomer", "hash", "reader", Instant.now()))
          .as("a new user's id, after the copied ones").isEqualTo(1_001);
      assertThat(stores.readingSettings().defaults(500))
          .hasValue(new ReadingSettings("strip", "rtl", "width", true, false));
      assertThat(stores.readingSettings().series(500, SampleReaderDatabase.series(0)))
          .hasValue(new ReadingSettings("double", "ltr", "height", false, true));
      assertThat(stores.catalog().series("series-1").tags()).containsExactly("circus", "night");
      assertThat(stores.catalog().catalog().collections()).extracting(c -> c.id())
          .containsExactly("favourites", "attic");
      assertThat(stores.catalog().cover("favourites").orElseThrow().image())
          .isEqualTo(java.util.HexFormat.of().parseHex(SampleReaderDatabase.COVER_HEX));
    }
  }

  @Test
  void aTargetHoldingOtherRowsIsRefusedNamingTheTablesAndReplaceCopiesOverIt() throws Exception {
    Path ours = folder.resolve("ours").resolve("reader.db");
    SampleReaderDatabase.write(ours, 3, 5);
    Path theirs = folder.resolve("theirs").resolve("reader.db");
    SampleReaderDatabase.write(theirs, 2, 4);
    TestPostgres.Database db = TestPostgres.freshDatabase();
    assertThat(run(db, "--from", theirs.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE).exit())
        .isZero();
    List<TableDigest> before = targetDigests(db);

    Run refused = run(db, "--from", ours.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);

    assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
    assertThat(refused.err()).contains("already holds other reader data; nothing written")
        .containsPattern("(?m)^\\s+users\\s+2\\s+3$").containsPattern("(?m)^\\s+progress\\s+8\\s+15$")
        .doesNotContainPattern("(?m)^\\s+series_merges\\s")
        .contains("--replace empties the target's reader tables and copies again");
    assertThat(targetDigests(db)).as("the target after the refusal").isEqualTo(before);

    Run replaced = run(db, "--from", ours.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE,
        "--replace");

    assertThat(replaced.exit()).as(replaced.toString()).isZero();
    assertThat(replaced.out()).containsPattern("(?m)^users\\s+3\\s").containsPattern("(?m)^progress\\s+15\\s")
        .contains("verified: ");
    assertThat(run(db, "--from", ours.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE).out())
        .contains("already copied; nothing written");
  }

  @Test
  void aPasswordInTheUrlIsRefusedAndAWrongOneIsOneLineAndNeitherIsEverPrinted() throws Exception {
    Path source = folder.resolve("reader.db");
    SampleReaderDatabase.write(source, 2, 2);
    TestPostgres.Database db = TestPostgres.freshDatabase();
    String inUrl = "postgresql://" + db.user() + ":" + db.password() + "@" + db.host() + ":" + db.port() + "/"
        + db.name();

    Run withPassword = run(db, "--from", source.toString(), "--to", inUrl);

    assertThat(withPassword.exit()).as(withPassword.toString()).isEqualTo(2);
    assertThat(withPassword.err()).contains("--to: a password in the URL").contains("--password-env")
        .doesNotContain(db.password());

    Path wrongFile = folder.resolve("wrong-password");
    Files.writeString(wrongFile, "not-the-password-42\n");
    Run wrong = run(db, "--from", source.toString(), "--to", db.url(), "--password-file", wrongFile.toString());

    assertThat(wrong.exit()).as(wrong.toString()).isEqualTo(1);
    assertThat(wrong.err()).startsWith("migrate-db: cannot connect to PostgreSQL localhost:" + db.port() + "/"
        + db.name()).contains("nothing written").doesNotContain("not-the-password-42").hasLineCount(1);
    assertThat(wrong.out()).isEmpty();
    assertThat(targetTables(db)).as("tables in the target").isEmpty();
  }

  @Test
  void aTargetThatIsNotAPostgresUrlOrAMissingOptionIsAUsageError() throws Exception {
    Path source = folder.resolve("reader.db");
    SampleReaderDatabase.write(source, 1, 1);
    TestPostgres.Database db = TestPostgres.freshDatabase();

    Run sqlite = run(db, "--from", source.toString(), "--to", "sqlite");
    Run noTarget = run(db, "--from", source.toString());

    assertThat(sqlite.exit()).isEqualTo(2);
    assertThat(sqlite.err()).isEqualTo("migrate-db: --to takes a PostgreSQL URL, postgresql://user@host[:port]/dbname;"
        + " nothing written" + System.lineSeparator());
    assertThat(noTarget.exit()).isEqualTo(2);
    assertThat(noTarget.err()).contains("Missing required option: '--to=URL'");
  }

  @Test
  void anUnreachableServerIsOneLineAndLeavesTheSourceAsItWas() throws Exception {
    Path source = folder.resolve("reader.db");
    SampleReaderDatabase.write(source, 2, 2);
    byte[] before = Files.readAllBytes(source);
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    TestPostgres.Database db = TestPostgres.freshDatabase();

    Run unreachable = run(db, "--from", source.toString(), "--to",
        "postgresql://" + db.user() + "@127.0.0.1:" + closedPort + "/" + db.name(),
        "--password-env", PASSWORD_VARIABLE);

    assertThat(unreachable.exit()).as(unreachable.toString()).isEqualTo(1);
    assertThat(unreachable.err()).startsWith("migrate-db: cannot connect to PostgreSQL 127.0.0.1:" + closedPort)
        .hasLineCount(1).doesNotContain(db.password());
    assertThat(Files.readAllBytes(source)).as("the source's bytes").isEqualTo(before);
  }

  @Test
  void aFileThatIsNotAReaderDatabaseIsRefusedAndLeftUntouched() throws Exception {
    TestPostgres.Database db = TestPostgres.freshDatabase();
    Path text = folder.resolve("notes").resolve("reader.db");
    Files.createDirectories(text.getParent());
    Files.writeString(text, "shopping list: milk, eggs\n");
    Path other = folder.resolve("other.db");
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + other);
        Statement statement = sqlite.createStatement()) {
      statement.execute("CREATE TABLE recipes (name TEXT PRIMARY KEY)");
    }
    byte[] otherBefore = Files.readAllBytes(other);

    Run notSqlite = run(db, "--from", text.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);
    Run notReader = run(db, "--from", other.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);
    Run missing = run(db, "--from", folder.resolve("absent.db").toString(), "--to", db.url(),
        "--password-env", PASSWORD_VARIABLE);

    assertThat(notSqlite.exit()).isEqualTo(1);
    assertThat(notSqlite.err()).contains("is not a SQLite database").hasLineCount(1);
    assertThat(Files.readString(text)).isEqualTo("shopping list: milk, eggs\n");
    assertThat(notReader.exit()).isEqualTo(1);
    assertThat(notReader.err()).contains("is a SQLite database but not the reader's").hasLineCount(1);
    assertThat(Files.readAllBytes(other)).as("the other SQLite file's bytes").isEqualTo(otherBefore);
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("there is no file");
    assertThat(folder.resolve("absent.db")).doesNotExist();
    assertThat(targetTables(db)).as("tables in the target").isEmpty();
  }

  @Test
  void aReaderRunningOnTheSourcesDataFolderIsRefused() throws Exception {
    Path source = folder.resolve("data").resolve("reader.db");
    SampleReaderDatabase.write(source, 2, 2);
    TestPostgres.Database db = TestPostgres.freshDatabase();

    Run locked;
    try (ProcessLock reader = ProcessLock.acquire(source.resolveSibling("reader.lock"), "reader pid 1")) {
      locked = run(db, "--from", source.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);
    }

    assertThat(locked.exit()).as(locked.toString()).isEqualTo(Main.EXIT_LOCKED);
    assertThat(locked.err()).contains("the reader is running on").contains("stop it first");
    assertThat(targetTables(db)).as("tables in the target").isEmpty();
  }

  @Test
  void aTableThatDiffersAfterCopyingRollsTheWholeCopyBackAndIsNamed() throws Exception {
    Path source = folder.resolve("reader.db");
    SampleReaderDatabase.write(source, 3, 5);
    TestPostgres.Database db = TestPostgres.freshDatabase();
    PostgresTarget target = PostgresTarget.parse(db.url(), PASSWORD_VARIABLE, null, 1, environment(db));
    PgDatabase.open(vertx, target).close();
    try (Connection connection = connect(db); Statement statement = connection.createStatement()) {
      // The server itself changes what is written: the copy must notice before it commits.
      statement.execute("CREATE FUNCTION turn_page() RETURNS trigger LANGUAGE plpgsql AS"
          + " $$ BEGIN NEW.page := NEW.page + 1; RETURN NEW; END $$");
      statement.execute(
          "CREATE TRIGGER turn_page BEFORE INSERT ON progress FOR EACH ROW EXECUTE FUNCTION turn_page()");
    }
    List<TableDigest> before = targetDigests(db);

    Run differs = run(db, "--from", source.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);

    assertThat(differs.exit()).as(differs.toString()).isEqualTo(1);
    assertThat(differs.err()).startsWith("migrate-db: table progress differs after copying (source 15 rows")
        .contains("rolled back, nothing written");
    assertThat(differs.out()).doesNotContain("verified");
    assertThat(targetDigests(db)).as("the target after the failed copy").isEqualTo(before);
  }

  @Test
  void aTargetWhoseTablesAreNotTheReadersIsRefused() throws Exception {
    Path source = folder.resolve("reader.db");
    SampleReaderDatabase.write(source, 2, 2);
    TestPostgres.Database db = TestPostgres.freshDatabase();
    PgDatabase.open(vertx, PostgresTarget.parse(db.url(), PASSWORD_VARIABLE, null, 1, environment(db))).close();
    try (Connection connection = connect(db); Statement statement = connection.createStatement()) {
      statement.execute("ALTER TABLE progress DROP COLUMN chapter");
    }

    Run refused = run(db, "--from", source.toString(), "--to", db.url(), "--password-env", PASSWORD_VARIABLE);

    assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
    assertThat(refused.err()).contains("are not the reader's: table progress has the columns")
        .contains("nothing written");
    try (Connection connection = connect(db); Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT count(*) FROM users")) {
      rows.next();
      assertThat(rows.getLong(1)).as("users in the target").isZero();
    }
  }

  @Test
  void aDatabaseFromANewerVersionOnEitherSideIsRefusedAndNothingIsWritten() throws Exception {
    String future = "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
        + " checksum, installed_by, execution_time, success) VALUES (99, '99', 'from the future', 'SQL',"
        + " 'V99__future.sql', 0, 'test', 0, %s)";
    Path newerSource = folder.resolve("newer").resolve("reader.db");
    SampleReaderDatabase.write(newerSource, 1, 1);
    SampleReaderDatabase.execute(newerSource, String.format(future, "1"));
    byte[] sourceBefore = Files.readAllBytes(newerSource);
    TestPostgres.Database empty = TestPostgres.freshDatabase();

    Run sourceNewer = run(empty, "--from", newerSource.toString(), "--to", empty.url(),
        "--password-env", PASSWORD_VARIABLE);

    assertThat(sourceNewer.exit()).as(sourceNewer.toString()).isEqualTo(1);
    assertThat(sourceNewer.err()).contains("has schema 99, newer than this version's").hasLineCount(1);
    assertThat(Files.readAllBytes(newerSource)).as("the newer source's bytes").isEqualTo(sourceBefore);
    assertThat(targetTables(empty)).as("tables in the target").isEmpty();

    Path source = folder.resolve("current").resolve("reader.db");
    SampleReaderDatabase.write(source, 1, 1);
    TestPostgres.Database newerTarget = TestPostgres.freshDatabase();
    PgDatabase.open(vertx, PostgresTarget.parse(newerTarget.url(), PASSWORD_VARIABLE, null, 1,
        environment(newerTarget))).close();
    try (Connection connection = connect(newerTarget); Statement statement = connection.createStatement()) {
      statement.execute(String.format(future, "true"));
    }
    List<TableDigest> targetBefore = targetDigests(newerTarget);

    Run targetNewer = run(newerTarget, "--from", source.toString(), "--to", newerTarget.url(),
        "--password-env", PASSWORD_VARIABLE);

    assertThat(targetNewer.exit()).as(targetNewer.toString()).isEqualTo(1);
    assertThat(targetNewer.err()).contains("has schema 99, newer than this version's").contains("nothing copied")
        .hasLineCount(1);
    assertThat(targetDigests(newerTarget)).as("the newer target").isEqualTo(targetBefore);
  }

  /** What one run printed and returned. */
  private record Run(int exit, String out, String err) {
  }

  private static Run run(TestPostgres.Database db, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new MigrateDbCommand(environment(db)));
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    int exit = command.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  private static Map<String, String> environment(TestPostgres.Database db) {
    return Map.of(PASSWORD_VARIABLE, db.password());
  }

  private static Connection connect(TestPostgres.Database db) throws Exception {
    return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
  }

  private static List<String> targetTables(TestPostgres.Database db) throws Exception {
    List<String> tables = new ArrayList<>();
    try (Connection connection = connect(db); Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
            + " WHERE table_schema = current_schema() ORDER BY table_name")) {
      while (rows.next()) {
        tables.add(rows.getString(1));
      }
    }
    return tables;
  }

  private static List<TableDigest> targetDigests(TestPostgres.Database db) throws Exception {
    try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + big);
        Connection connection = connect(db)) {
      List<ReaderTable> tables = io.mangacircus.launcher.migrate.ReaderTables.inSqlite(sqlite);
      List<TableDigest> digests = new ArrayList<>(
          TableChecksum.all(connection, TableChecksum.Engine.POSTGRESQL, tables));
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT count(*) FROM flyway_schema_history")) {
        rows.next();
        digests.add(new TableDigest("flyway_schema_history", rows.getLong(1), "-"));
      }
      return digests;
    }
  }

  private static List<String> emptyTables(TestPostgres.Database db) throws Exception {
    List<String> empty = new ArrayList<>();
    for (TableDigest digest : targetDigests(db)) {
      if (digest.rows() == 0) {
        empty.add(digest.table());
      }
    }
    return empty;
  }
}
