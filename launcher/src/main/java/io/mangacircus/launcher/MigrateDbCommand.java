package io.mangacircus.launcher;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.launcher.lock.LockHeldException;
import io.mangacircus.launcher.lock.ProcessLock;
import io.mangacircus.launcher.migrate.CopyOutcome;
import io.mangacircus.launcher.migrate.ReaderDatabaseCopy;
import io.mangacircus.launcher.migrate.SqliteSource;
import io.mangacircus.launcher.migrate.TableDigest;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.pg.PgDatabase;
import io.mangacircus.reader.store.pg.PostgresTarget;
import io.mangacircus.reader.store.pg.UnusableDatabaseException;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/mangacircus migrate-db --from data/reader.db --to postgresql://user@host:port/db}: copies a stopped
 * reader's SQLite database into PostgreSQL, both first migrated to this version's schema, verifies each table's rows
 * and checksum, and is safe to run again. Never prints the password.
 */
@Command(name = "migrate-db", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
    description = {"Copies the reader's SQLite database into a PostgreSQL database (for reader.database), in one "
        + "transaction, then compares every table's row count and checksum on both sides. A target that already holds "
        + "exactly these rows is left alone; a target holding other rows is refused unless --replace is given. The "
        + "reader must be stopped.",
        "Exit codes: 0 copied or already copied, 1 not copied (nothing written), 2 invalid command line, "
            + "3 a running reader owns the source's data folder."})
final class MigrateDbCommand implements Callable<Integer> {

  /** How long connecting to the server may take before the command gives up (seconds). */
  private static final int CONNECT_TIMEOUT_SECONDS = 10;

  @Option(names = "--from", required = true, paramLabel = "FILE", description = "the reader's SQLite database, "
      + "e.g. data/reader.db")
  private Path from;

  @Option(names = "--to", required = true, paramLabel = "URL",
      description = "postgresql://user@host[:port]/dbname[?sslmode=disable|require], without a password")
  private String to;

  @Option(names = "--password-env", paramLabel = "VAR", description = "an environment variable holding the password")
  private String passwordEnv;

  @Option(names = "--password-file", paramLabel = "FILE",
      description = "a file holding the password (one trailing line break ignored)")
  private String passwordFile;

  @Option(names = "--replace", description = "empty the target's reader tables first when they hold other rows")
  private boolean replace;

  @Spec
  private CommandSpec spec;

  private final Map<String, String> environment;

  MigrateDbCommand() {
    this(System.getenv());
  }

  /** @param environment the environment variables, for {@code --password-env} */
  MigrateDbCommand(Map<String, String> environment) {
    this.environment = environment;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      return migrate(out, err);
    } finally {
      out.flush();
      err.flush();
    }
  }

  private int migrate(PrintWriter out, PrintWriter err) {
    if (!PostgresTarget.isPostgresUrl(to)) {
      // Not echoed: whatever was given may hold a password.
      err.println("migrate-db: --to takes a PostgreSQL URL, postgresql://user@host[:port]/dbname; nothing written");
      return Main.EXIT_CONFIG;
    }
    PostgresTarget target;
    try {
      target = PostgresTarget.parse(to, passwordEnv, passwordFile, 1, environment);
    } catch (IllegalArgumentException e) {
      err.println("migrate-db: " + asOptions(e.getMessage()) + "; nothing written");
      return Main.EXIT_CONFIG;
    }
    Optional<String> notReader = SqliteSource.problem(from);
    if (notReader.isPresent()) {
      err.println("migrate-db: " + notReader.get() + "; nothing written");
      return Main.EXIT_FAILURE;
    }
    Path lockFile = from.toAbsolutePath().resolveSibling("reader.lock");
    // The reader locks its data folder's reader.lock; a file named otherwise outside a data folder needs no lock.
    if (!Files.exists(lockFile) && !from.getFileName().toString().equals("reader.db")) {
      return migrateUnlocked(target, out, err);
    }
    try (ProcessLock lock = ProcessLock.acquire(lockFile, "migrate-db pid " + ProcessHandle.current().pid())) {
      return migrateUnlocked(target, out, err);
    } catch (LockHeldException e) {
      err.println("migrate-db: the reader is running on " + from.toAbsolutePath().getParent() + ": "
          + e.getMessage());
      err.println("migrate-db: stop it first (SIGTERM, Ctrl-C or POST /api/system/shutdown); nothing written");
      return Main.EXIT_LOCKED;
    } catch (IOException e) {
      err.println("migrate-db: the data folder " + from.toAbsolutePath().getParent() + " is not usable: " + e
          + "; nothing written");
      return Main.EXIT_FAILURE;
    }
  }

  private int migrateUnlocked(PostgresTarget target, PrintWriter out, PrintWriter err) {
    String where = "PostgreSQL " + target.describe();
    // The server is reached first: a wrong address or password stops here, before either database is migrated.
    try (Connection probe = dataSource(target).getConnection()) {
      probe.getMetaData();
    } catch (SQLException e) {
      err.println("migrate-db: cannot connect to " + where + ": " + oneLine(e.getMessage()) + "; nothing written");
      return Main.EXIT_FAILURE;
    }
    try (ReaderStores migrated = ReaderStores.openSqlite(from)) {
      migrated.users();
    } catch (CorruptStateFileException e) {
      err.println("migrate-db: " + oneLine(e.getMessage()) + "; nothing written");
      return Main.EXIT_FAILURE;
    } catch (io.mangacircus.reader.store.StoreException e) {
      err.println("migrate-db: " + from.toAbsolutePath() + " could not be closed: " + oneLine(e.getMessage()));
      return Main.EXIT_FAILURE;
    }
    Optional<String> notMigrated = migrateTarget(target);
    if (notMigrated.isPresent()) {
      err.println("migrate-db: " + notMigrated.get() + "; nothing copied");
      return Main.EXIT_FAILURE;
    }
    out.println("migrate-db: " + from + " -> " + where);
    CopyOutcome outcome;
    try (Connection source = SqliteSource.openReadOnly(from);
        Connection destination = dataSource(target).getConnection()) {
      outcome = new ReaderDatabaseCopy(source, destination).run(replace);
    } catch (SQLException e) {
      err.println("migrate-db: the copy failed and was rolled back: " + oneLine(e.getMessage())
          + "; nothing written");
      return Main.EXIT_FAILURE;
    }
    return report(outcome, where, out, err);
  }

  private static int report(CopyOutcome outcome, String where, PrintWriter out, PrintWriter err) {
    if (outcome instanceof CopyOutcome.Copied copied) {
      printTable(copied.tables(), out);
      long rows = copied.tables().stream().mapToLong(TableDigest::rows).sum();
      out.println("verified: " + copied.tables().size() + " tables, " + rows + " rows; " + where
          + " holds exactly the source's rows");
      return 0;
    }
    if (outcome instanceof CopyOutcome.AlreadyCopied same) {
      printTable(same.tables(), out);
      out.println("already copied; nothing written");
      return 0;
    }
    if (outcome instanceof CopyOutcome.TargetNotEmpty other) {
      err.println("migrate-db: " + where + " already holds other reader data; nothing written. Tables that differ "
          + "(rows in the target, rows in the source):");
      for (int i = 0; i < other.source().size(); i++) {
        TableDigest source = other.source().get(i);
        TableDigest target = other.target().get(i);
        if (!source.equals(target)) {
          err.println(String.format(Locale.ROOT, "  %-24s %10d %10d", source.table(), target.rows(), source.rows()));
        }
      }
      err.println("migrate-db: --replace empties the target's reader tables and copies again");
      return Main.EXIT_FAILURE;
    }
    if (outcome instanceof CopyOutcome.SchemaDiffers differs) {
      err.println("migrate-db: the tables of " + where + " are not the reader's: " + differs.difference()
          + "; nothing written");
      return Main.EXIT_FAILURE;
    }
    CopyOutcome.VerifyFailed failed = (CopyOutcome.VerifyFailed) outcome;
    err.println("migrate-db: table " + failed.source().table() + " differs after copying (source "
        + failed.source().rows() + " rows, checksum " + failed.source().shortChecksum() + "; target "
        + failed.target().rows() + " rows, checksum " + failed.target().shortChecksum()
        + "); rolled back, nothing written");
    return Main.EXIT_FAILURE;
  }

  private static void printTable(List<TableDigest> tables, PrintWriter out) {
    out.println(String.format(Locale.ROOT, "%-24s %10s  %s", "table", "rows", "checksum"));
    for (TableDigest table : tables) {
      out.println(String.format(Locale.ROOT, "%-24s %10d  %s", table.table(), table.rows(), table.shortChecksum()));
    }
  }

  /** Migrates the target to this version's schema as the reader does at start; what went wrong, if anything. */
  private static Optional<String> migrateTarget(PostgresTarget target) {
    Vertx vertx = Vertx.vertx();
    try {
      PgDatabase.open(vertx, target).close();
      return Optional.empty();
    } catch (UnusableDatabaseException e) {
      // It names the database and what is wrong with it, never the password.
      return Optional.of(asOptions(oneLine(e.getMessage())));
    } finally {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException | TimeoutException e) {
        // Its pool is closed already; what is left (event-loop threads) ends with the command.
        LoggerFactory.getLogger(MigrateDbCommand.class).warn("migrate-db: Vert.x did not close: {}", e.toString());
      }
    }
  }

  private static PGSimpleDataSource dataSource(PostgresTarget target) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setServerNames(new String[] {target.host()});
    dataSource.setPortNumbers(new int[] {target.port()});
    dataSource.setDatabaseName(target.database());
    dataSource.setUser(target.user());
    target.password().ifPresent(dataSource::setPassword);
    dataSource.setSslMode(target.sslMode() == PostgresTarget.SslMode.REQUIRE ? "require" : "disable");
    dataSource.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
    dataSource.setApplicationName("mangacircus-migrate-db");
    // One multi-row INSERT per batch instead of one statement per row: the copy's time is mostly these inserts.
    dataSource.setReWriteBatchedInserts(true);
    return dataSource;
  }

  /** A configuration message as the command's options name it: the same rules as the reader's keys. */
  private static String asOptions(String message) {
    return message.replace("reader.databasePasswordEnv", "--password-env")
        .replace("reader.databasePasswordFile", "--password-file")
        .replace("reader.database", "--to")
        .replace("databasePasswordEnv", "--password-env").replace("databasePasswordFile", "--password-file");
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
