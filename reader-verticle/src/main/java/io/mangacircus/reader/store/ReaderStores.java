package io.mangacircus.reader.store;

import io.mangacircus.reader.store.pg.PgAlertStore;
import io.mangacircus.reader.store.pg.PgAppPasswordStore;
import io.mangacircus.reader.store.pg.PgCatalogStore;
import io.mangacircus.reader.store.pg.PgDatabase;
import io.mangacircus.reader.store.pg.PgKosyncStore;
import io.mangacircus.reader.store.pg.PgProgressStore;
import io.mangacircus.reader.store.pg.PgReadingSettingsStore;
import io.mangacircus.reader.store.pg.PgSeriesMergeStore;
import io.mangacircus.reader.store.pg.PgSessionStore;
import io.mangacircus.reader.store.pg.PgTrackerStore;
import io.mangacircus.reader.store.pg.PgUserStore;
import io.mangacircus.reader.store.pg.PostgresTarget;
import io.vertx.core.Vertx;
import java.nio.file.Path;

/**
 * The reader's stores, one per aggregate, over one open database; closing this closes that database. Whatever needs
 * reader data takes the one store it needs from here, never the database itself.
 */
public final class ReaderStores implements AutoCloseable {

  /** How the database under the stores is closed. */
  @FunctionalInterface
  public interface Closing {
    void close() throws StoreException;
  }

  private final UserStore users;
  private final SessionStore sessions;
  private final AppPasswordStore appPasswords;
  private final ProgressStore progress;
  private final AlertStore alerts;
  private final KosyncStore kosync;
  private final SeriesMergeStore merges;
  private final TrackerStore trackers;
  private final ReadingSettingsStore readingSettings;
  private final CatalogStore catalog;
  private final Closing closing;

  public ReaderStores(UserStore users, SessionStore sessions, AppPasswordStore appPasswords, ProgressStore progress,
      AlertStore alerts, KosyncStore kosync, SeriesMergeStore merges, TrackerStore trackers,
      ReadingSettingsStore readingSettings, CatalogStore catalog, Closing closing) {
    this.users = users;
    this.sessions = sessions;
    this.appPasswords = appPasswords;
    this.progress = progress;
    this.alerts = alerts;
    this.kosync = kosync;
    this.merges = merges;
    this.trackers = trackers;
    this.readingSettings = readingSettings;
    this.catalog = catalog;
    this.closing = closing;
  }

  /**
   * The stores of the database the config names: {@code reader.db} in the data folder, or PostgreSQL (its password
   * read now from the environment variable or file the config names). A {@code catalog.json} in the data folder is
   * imported into a database that holds no catalog yet ({@link CatalogFileImport}). Blocking: call it from a worker
   * thread.
   *
   * @throws IllegalArgumentException naming the config key at fault (a password variable not set, a file not readable)
   * @throws io.mangacircus.contracts.CorruptStateFileException when {@code reader.db} is not usable, or
   *     {@code catalog.json} is to be imported and does not parse
   * @throws io.mangacircus.reader.store.pg.UnusableDatabaseException when the PostgreSQL database is not
   * @throws StoreException when the catalog cannot be imported
   */
  public static ReaderStores open(ReaderDatabaseConfig config, Path dataDir, Vertx vertx,
      java.util.Map<String, String> environment) throws StoreException {
    ReaderStores stores = config.sqlite() ? openSqlite(dataDir.resolve("reader.db"))
        : openPostgres(vertx, config.target(environment));
    try {
      CatalogFileImport.importOnce(stores.catalog(), dataDir);
    } catch (StoreException | RuntimeException e) {
      try {
        stores.close();
      } catch (StoreException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    return stores;
  }

  /**
   * The stores of a SQLite {@code reader.db}, opened (or created) and migrated forward.
   *
   * @throws io.mangacircus.contracts.CorruptStateFileException when the file is not a reader database or comes from a
   *     newer version
   */
  public static ReaderStores openSqlite(Path file) {
    SqliteDatabase database = SqliteDatabase.open(file);
    return new ReaderStores(new SqliteUserStore(database), new SqliteSessionStore(database),
        new SqliteAppPasswordStore(database), new CachedProgressStore(new SqliteProgressStore(database)),
        new SqliteAlertStore(database),
        new SqliteKosyncStore(database), new SqliteSeriesMergeStore(database), new SqliteTrackerStore(database),
        new SqliteReadingSettingsStore(database), new SqliteCatalogStore(database), database::close);
  }

  /**
   * The stores of a PostgreSQL database, migrated forward at open. Several readers may share it, so progress is read
   * from the database each time (no {@link CachedProgressStore}, which is sound only for a single writer).
   *
   * @throws io.mangacircus.reader.store.pg.UnusableDatabaseException when the database cannot be reached, refuses
   *     the login, comes from a newer version or fails to migrate
   */
  public static ReaderStores openPostgres(Vertx vertx, PostgresTarget target) {
    PgDatabase database = PgDatabase.open(vertx, target);
    return new ReaderStores(new PgUserStore(database), new PgSessionStore(database),
        new PgAppPasswordStore(database), new PgProgressStore(database), new PgAlertStore(database),
        new PgKosyncStore(database), new PgSeriesMergeStore(database), new PgTrackerStore(database),
        new PgReadingSettingsStore(database), new PgCatalogStore(database), database::close);
  }

  public UserStore users() {
    return users;
  }

  public SessionStore sessions() {
    return sessions;
  }

  public AppPasswordStore appPasswords() {
    return appPasswords;
  }

  public ProgressStore progress() {
    return progress;
  }

  public AlertStore alerts() {
    return alerts;
  }

  public KosyncStore kosync() {
    return kosync;
  }

  public SeriesMergeStore merges() {
    return merges;
  }

  public TrackerStore trackers() {
    return trackers;
  }

  public ReadingSettingsStore readingSettings() {
    return readingSettings;
  }

  public CatalogStore catalog() {
    return catalog;
  }

  @Override
  public void close() throws StoreException {
    closing.close();
  }
}
