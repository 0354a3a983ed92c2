package io.mangacircus.launcher;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.launcher.config.ConfigLoader;
import io.mangacircus.launcher.config.ConfigLoader.CommandLineOverrides;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.lock.LockHeldException;
import io.mangacircus.launcher.lock.ProcessLock;
import io.mangacircus.reader.accounts.GeneratedPassword;
import io.mangacircus.reader.accounts.PasswordHasher;
import io.mangacircus.reader.store.ReaderDatabaseConfig;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import io.mangacircus.reader.store.pg.PostgresTarget;
import io.mangacircus.reader.store.pg.UnusableDatabaseException;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mangacircus.jar reset-password <user>}: with the reader stopped (its data-folder lock taken here), gives the
 * account a new generated password, prints it once, and ends the account's sessions and app passwords.
 */
@Command(name = "reset-password", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
    description = {"Sets a new generated password for USER in the reader's database (the data folder's reader.db, or "
        + "PostgreSQL when reader.database names it), prints it once and ends "
        + "USER's sessions and app passwords. The reader must be stopped.",
        "Exit codes: 0 done, 1 no such user or no reader database, 2 invalid configuration, "
            + "3 a running reader owns the data folder."})
final class ResetPasswordCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "USER", description = "the account whose password is reset")
  private String username;

  @Option(names = "--data", paramLabel = "DIR", description = "data folder (default ./data; env MANGACIRCUS_DATA)")
  private String data;

  @Option(names = "--conf", paramLabel = "FILE",
      description = "config file merged over the defaults (default conf/mangacircus.json when present)")
  private Path conf;

  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      return reset(out, err);
    } finally {
      out.flush();
      err.flush();
    }
  }

  private int reset(PrintWriter out, PrintWriter err) {
    MangaCircusConfig config;
    try {
      config = new ConfigLoader().load(Optional.ofNullable(conf), System.getenv(),
          new CommandLineOverrides(data, null, null, null, null, false));
    } catch (InvalidConfigException e) {
      err.println("reset-password: " + e.getMessage());
      err.println("reset-password: nothing changed; see docs/configuration.md");
      return Main.EXIT_CONFIG;
    }
    DataLayout layout = new DataLayout(config.dataPath());
    Path databaseFile = layout.root().resolve("reader.db");
    ReaderDatabaseConfig database = config.reader().databaseConfig();
    if (database.sqlite() && !Files.isRegularFile(databaseFile)) {
      err.println("reset-password: there is no reader database at " + databaseFile.toAbsolutePath()
          + " (has the reader ever run with this data folder? give it with --data DIR); nothing changed");
      return Main.EXIT_FAILURE;
    }
    try (ProcessLock lock = ProcessLock.acquire(layout.lockFile("reader"),
        "reset-password pid " + ProcessHandle.current().pid())) {
      return database.sqlite() ? resetLocked(databaseFile, out, err) : resetOnPostgres(database, layout, out, err);
    } catch (LockHeldException e) {
      err.println("reset-password: the reader is running on this data folder: " + e.getMessage());
      err.println("reset-password: stop it first (SIGTERM, Ctrl-C or POST /api/system/shutdown), or, if you can "
          + "still log in as an admin, set the password on the Users page (/admin/users.html); nothing changed");
      return Main.EXIT_LOCKED;
    } catch (IOException e) {
      err.println("reset-password: the data folder " + layout.root().toAbsolutePath() + " is not usable: " + e);
      return Main.EXIT_FAILURE;
    }
  }

  /** The reader's PostgreSQL database, on a Vert.x of its own for the reactive client, closed when done. */
  private int resetOnPostgres(ReaderDatabaseConfig database, DataLayout layout, PrintWriter out, PrintWriter err) {
    Vertx vertx = Vertx.vertx();
    try {
      PostgresTarget target = database.target(System.getenv());
      try (ReaderStores stores = ReaderStores.openPostgres(vertx, target)) {
        return reset(stores, "PostgreSQL " + target.describe(), out, err);
      }
    } catch (IllegalArgumentException e) {
      err.println("reset-password: " + e.getMessage() + "; nothing changed");
      return Main.EXIT_CONFIG;
    } catch (UnusableDatabaseException e) {
      err.println("reset-password: " + e.getMessage() + "; nothing changed");
      return Main.EXIT_FAILURE;
    } catch (StoreException e) {
      err.println("reset-password: PostgreSQL could not be updated: " + e.getMessage() + "; nothing changed");
      return Main.EXIT_FAILURE;
    } finally {
      vertx.close().await();
    }
  }

  private int resetLocked(Path databaseFile, PrintWriter out, PrintWriter err) {
    try (ReaderStores stores = ReaderStores.openSqlite(databaseFile)) {
      return reset(stores, databaseFile.toAbsolutePath().toString(), out, err);
    } catch (CorruptStateFileException e) {
      err.println("reset-password: " + e.getMessage() + "; nothing changed");
      return Main.EXIT_FAILURE;
    } catch (StoreException e) {
      err.println("reset-password: " + databaseFile.toAbsolutePath() + " could not be updated: " + e.getMessage()
          + "; nothing changed");
      return Main.EXIT_FAILURE;
    }
  }

  /** Sets the new password in {@code where} (the database, as messages name it). */
  private int reset(ReaderStores stores, String where, PrintWriter out, PrintWriter err) throws StoreException {
    UserStore users = stores.users();
    Optional<User> user = users.user(username);
    if (user.isEmpty()) {
      err.println("reset-password: there is no user named '" + username + "' in " + where + "; nothing changed");
      return Main.EXIT_FAILURE;
    }
    String name = user.get().username();
    String password = GeneratedPassword.create();
    if (!users.setPassword(name, PasswordHasher.hash(password.toCharArray()), java.time.Instant.now())) {
      err.println("reset-password: the user '" + name + "' vanished while its password was set; nothing changed");
      return Main.EXIT_FAILURE;
    }
    out.println(GeneratedPassword.notice("reset-password: new password for '" + name
        + "'; its sessions and app passwords ended", name, password));
    if (user.get().disabled()) {
      out.println("note: '" + name + "' is disabled; an admin enables it on the Users page before it can log in");
    }
    return 0;
  }
}
