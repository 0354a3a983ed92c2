package io.mangacircus.reader.library;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.reader.LibraryConfig;
import io.mangacircus.reader.library.collection.CollectionLibraries;
import io.mangacircus.reader.library.collection.CollectionShelf;
import io.mangacircus.reader.library.collection.CollectionWatch;
import io.mangacircus.reader.library.collection.RarSupport;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collections' upkeep (docs/libraries.md): those of the config file and those an admin added (kept in
 * {@code data/libraries.json}), each a shelf loaded from what the last process kept, watched and rescanned
 * periodically; adding one starts a scan; all stopped with the reader.
 */
public final class CollectionUpkeep {

  private static final Logger LOG = LoggerFactory.getLogger(CollectionUpkeep.class);

  /** How long a collection must be quiet after a noticed change before it is rescanned (a copy in progress). */
  static final Duration QUIET = Duration.ofSeconds(2);

  /** A collection as the admin page shows it. */
  public record Described(LibraryConfig config, boolean fromConfigFile, boolean watched, CollectionShelf shelf) {
  }

  /** Why an admin's change was refused, in words for them. */
  public static final class Refused extends RuntimeException {
    public Refused(String message) {
      super(message);
    }
  }

  private final Path dataDir;
  private final InstantSource clock;
  private final RarSupport rar = RarSupport.detect();
  private final List<LibraryConfig> fromFile;
  private final AddedLibraries added;
  private final List<LibraryConfig> adminAdded = new ArrayList<>();
  private final CollectionLibraries libraries;
  private final Map<String, CollectionWatch> watches = new HashMap<>();
  private final Map<String, Long> timers = new HashMap<>();
  private String addedUnusable;
  private Vertx vertx;
  private LibraryInventory inventory;

  private CollectionUpkeep(Path dataDir, InstantSource clock, List<LibraryConfig> fromFile) {
    this.dataDir = dataDir;
    this.clock = clock;
    this.fromFile = List.copyOf(fromFile);
    this.added = new AddedLibraries(dataDir);
    this.libraries = new CollectionLibraries(List.of());
  }

  /** The collections' shelves, each starting from its kept scan. Blocking. */
  public static CollectionUpkeep load(List<LibraryConfig> configs, Path dataDir, InstantSource clock) {
    CollectionUpkeep upkeep = new CollectionUpkeep(dataDir, clock, configs);
    configs.forEach(config -> upkeep.libraries.add(upkeep.shelf(config)));
    try {
      for (LibraryConfig config : upkeep.added.load()) {
        if (upkeep.libraries.names().contains(config.name())) {
          LOG.warn("[LIBRARY] collection '{}' added on the admin page is also in the config file: the config file's "
              + "is used", config.name());
          continue;
        }
        upkeep.adminAdded.add(config);
        upkeep.libraries.add(upkeep.shelf(config));
      }
    } catch (CorruptStateFileException e) {
      upkeep.addedUnusable = e.getMessage();
      LOG.error("[LIBRARY] {}: the collections added on the admin page are not served, and the file is left as it is",
          e.getMessage());
    }
    return upkeep;
  }

  private CollectionShelf shelf(LibraryConfig config) {
    return new CollectionShelf(config.name(), config.folder(), stateFolder(config.name()), clock, rar).loadKept();
  }

  private Path stateFolder(String name) {
    return dataDir.resolve("collections").resolve(name);
  }

  public CollectionLibraries libraries() {
    return libraries;
  }

  /** Every library's name: the downloads library's first, then the collections' in the order they were added. */
  public List<String> libraryNames() {
    List<String> names = new ArrayList<>();
    names.add(SeriesEntry.DOWNLOADS);
    libraries.shelves().forEach(shelf -> names.add(shelf.name()));
    return names;
  }

  /** Starts watching and the periodic rescans, each of which asks {@code inventory} for a fresh scan. */
  public synchronized void start(Vertx vertx, LibraryInventory inventory) {
    this.vertx = vertx;
    this.inventory = inventory;
    fromFile.forEach(this::keepUp);
    adminAdded.forEach(this::keepUp);
  }

  private void keepUp(LibraryConfig config) {
    Path root = config.folder();
    if (config.watch()) {
      CollectionWatch.start(root, QUIET, inventory::fresh).ifPresent(w -> watches.put(config.name(), w));
    }
    if (config.rescanMinutes() > 0) {
      timers.put(config.name(), vertx.setPeriodic(Duration.ofMinutes(config.rescanMinutes()).toMillis(),
          id -> inventory.fresh()));
    }
  }

  /** Every collection, those of the config file first. */
  public synchronized List<Described> describe() {
    List<Described> all = new ArrayList<>();
    for (CollectionShelf shelf : libraries.shelves()) {
      Optional<LibraryConfig> file = fromFile.stream().filter(c -> c.name().equals(shelf.name())).findFirst();
      LibraryConfig config = file.orElseGet(() -> adminAdded.stream().filter(c -> c.name().equals(shelf.name()))
          .findFirst().orElseThrow());
      all.add(new Described(config, file.isPresent(), watches.containsKey(shelf.name()), shelf));
    }
    return all;
  }

  /**
   * Adds a collection as an admin asked: checked like the config file's, kept in {@code data/libraries.json}, then
   * watched and scanned. Blocking.
   *
   * @throws Refused with the reason, when it cannot be added
   */
  public synchronized void add(LibraryConfig config) {
    config.problem().ifPresent(problem -> {
      throw new Refused(problem);
    });
    if (addedUnusable != null) {
      throw new Refused(addedUnusable + "; repair or remove it first");
    }
    if (config.name().equals(SeriesEntry.DOWNLOADS) || libraries.names().contains(config.name())) {
      throw new Refused("a library named '" + config.name() + "' exists already");
    }
    Path folder = config.folder();
    Path data = dataDir.toAbsolutePath().normalize();
    if (folder.startsWith(data) || data.startsWith(folder)) {
      throw new Refused("'" + folder + "' overlaps the data folder " + data + "; a collection lies outside it");
    }
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS) || !Files.isReadable(folder)) {
      throw new Refused("'" + folder + "' is not a folder this process can read");
    }
    List<LibraryConfig> next = new ArrayList<>(adminAdded);
    next.add(config);
    try {
      added.save(next);
    } catch (IOException e) {
      throw new Refused("cannot keep it in " + AddedLibraries.FILE + ": " + e.getMessage());
    }
    adminAdded.add(config);
    libraries.add(shelf(config));
    keepUp(config);
    LOG.info("[LIBRARY] collection '{}' at {} added on the admin page", config.name(), folder);
    inventory.fresh();
  }

  /**
   * Removes a collection an admin added, and what MangaCircus kept about it (never anything in the collection).
   *
   * @throws Refused when it is not one the admin added
   */
  public synchronized void remove(String name) {
    if (fromFile.stream().anyMatch(c -> c.name().equals(name))) {
      throw new Refused("collection '" + name + "' is set in the config file; remove it there");
    }
    Optional<LibraryConfig> config = adminAdded.stream().filter(c -> c.name().equals(name)).findFirst();
    if (config.isEmpty()) {
      throw new Refused("no collection named '" + name + "'");
    }
    List<LibraryConfig> next = new ArrayList<>(adminAdded);
    next.remove(config.get());
    try {
      added.save(next);
      adminAdded.remove(config.get());
      libraries.remove(name);
      Optional.ofNullable(watches.remove(name)).ifPresent(CollectionWatch::close);
      Optional.ofNullable(timers.remove(name)).ifPresent(vertx::cancelTimer);
      DurableFiles.deleteTree(stateFolder(name));
    } catch (IOException e) {
      throw new Refused("cannot remove it: " + e.getMessage());
    }
    LOG.info("[LIBRARY] collection '{}' removed on the admin page", name);
    inventory.fresh();
  }

  public synchronized void stop() {
    if (vertx != null) {
      timers.values().forEach(vertx::cancelTimer);
    }
    watches.values().forEach(CollectionWatch::close);
  }
}
