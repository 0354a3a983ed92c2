package io.mangacircus.launcher;

import java.nio.file.Path;

/** The launcher's files inside the data folder (docs/architecture.md §3). */
public final class DataLayout {

  private final Path root;

  public DataLayout(Path root) {
    this.root = root;
  }

  /** The data folder. */
  public Path root() {
    return root;
  }

  /** {@code data/scraper/}. */
  public Path scraperFolder() {
    return root.resolve("scraper");
  }

  /** The runtime file of a service: {@code data/runtime-reader.json} or {@code data/scraper/runtime.json}. */
  public Path runtimeFile(String service) {
    return switch (service) {
      case "reader" -> root.resolve("runtime-reader.json");
      case "scraper" -> scraperFolder().resolve("runtime.json");
      default -> root.resolve("runtime-" + service + ".json");
    };
  }

  /** The OS lock file that makes a service's owner unique: {@code data/reader.lock}, {@code data/scraper/daemon.lock}. */
  public Path lockFile(String service) {
    return "scraper".equals(service) ? scraperFolder().resolve("daemon.lock") : root.resolve(service + ".lock");
  }

  /** {@code data/scraper/queue.json}. */
  public Path queueFile() {
    return scraperFolder().resolve("queue.json");
  }

  /** {@code data/scraper/queue.json.journal}: the queue's changes since its snapshot {@code queue.json}. */
  public Path queueJournal() {
    return io.mangacircus.scraper.queue.QueueStore.journalOf(queueFile());
  }

  /** {@code data/catalog.json}. */
  public Path catalogFile() {
    return root.resolve("catalog.json");
  }

  /**
   * Every JSON state file a service keeps and refuses to start over when it does not parse: the queue, the catalog,
   * follows, discovery settings and the notification settings and outbox (runtime files are checked apart).
   */
  public java.util.List<Path> stateFiles() {
    Path notifications = root.resolve("notifications");
    return java.util.List.of(queueFile(), catalogFile(), scraperFolder().resolve("follows.json"),
        scraperFolder().resolve("discovery.json"), notifications.resolve("destinations.json"),
        notifications.resolve("outbox.json"));
  }

  /** {@code data/reader.db}: the reader's accounts, sessions, progress and alerts. */
  public Path readerDatabase() {
    return root.resolve("reader.db");
  }

  /**
   * The files that hold secrets or personal data, which only their owner may read: the reader's database with its
   * {@code -wal}, {@code -shm} and {@code -journal} (password hashes, session and CSRF tokens, readers' alert targets
   * and what they read), and the notification settings and outbox (destination tokens and URLs).
   */
  public java.util.List<Path> privateFiles() {
    java.util.List<Path> files = new java.util.ArrayList<>();
    files.add(readerDatabase());
    files.addAll(io.mangacircus.reader.store.SqliteDatabase.companions(readerDatabase()));
    files.add(root.resolve("notifications").resolve("destinations.json"));
    files.add(root.resolve("notifications").resolve("outbox.json"));
    return java.util.List.copyOf(files);
  }
}
