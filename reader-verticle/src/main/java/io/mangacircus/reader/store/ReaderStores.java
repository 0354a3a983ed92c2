package io.mangacircus.reader.store;

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
  private final Closing closing;

  public ReaderStores(UserStore users, SessionStore sessions, AppPasswordStore appPasswords, ProgressStore progress,
      AlertStore alerts, KosyncStore kosync, SeriesMergeStore merges, TrackerStore trackers,
      ReadingSettingsStore readingSettings, Closing closing) {
    this.users = users;
    this.sessions = sessions;
    this.appPasswords = appPasswords;
    this.progress = progress;
    this.alerts = alerts;
    this.kosync = kosync;
    this.merges = merges;
    this.trackers = trackers;
    this.readingSettings = readingSettings;
    this.closing = closing;
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
        new SqliteAppPasswordStore(database), new CachedProgressStore(new SqliteProgressStore(database)), new SqliteAlertStore(database),
        new SqliteKosyncStore(database), new SqliteSeriesMergeStore(database), new SqliteTrackerStore(database),
        new SqliteReadingSettingsStore(database), database::close);
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

  @Override
  public void close() throws StoreException {
    closing.close();
  }
}
