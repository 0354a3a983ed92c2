package io.mangacircus.reader;

import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.collection.CollectionLibraries;
import io.mangacircus.reader.library.collection.CollectionShelf;
import io.mangacircus.reader.library.collection.CollectionWatch;
import io.mangacircus.reader.library.collection.RarSupport;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The configured collections' upkeep (docs/libraries.md): their shelves, loaded from what the last process kept; a
 * watch of each folder and a periodic rescan that refresh the inventory; all stopped with the reader.
 */
final class CollectionUpkeep {

  /** How long a collection must be quiet after a noticed change before it is rescanned (a copy in progress). */
  static final Duration QUIET = Duration.ofSeconds(2);

  private final List<LibraryConfig> configs;
  private final CollectionLibraries libraries;
  private final List<CollectionWatch> watches = new ArrayList<>();
  private final List<Long> timers = new ArrayList<>();

  private CollectionUpkeep(List<LibraryConfig> configs, CollectionLibraries libraries) {
    this.configs = configs;
    this.libraries = libraries;
  }

  /** The collections' shelves, each starting from its kept scan. Blocking. */
  static CollectionUpkeep load(List<LibraryConfig> configs, Path dataDir, InstantSource clock) {
    RarSupport rar = RarSupport.detect();
    List<CollectionShelf> shelves = new ArrayList<>();
    for (LibraryConfig config : configs) {
      shelves.add(new CollectionShelf(config.name(), config.folder(), dataDir.resolve("collections")
          .resolve(config.name()), clock, rar).loadKept());
    }
    return new CollectionUpkeep(configs, new CollectionLibraries(shelves));
  }

  CollectionLibraries libraries() {
    return libraries;
  }

  /** Starts watching and the periodic rescans, each of which asks {@code inventory} for a fresh scan. */
  void start(Vertx vertx, LibraryInventory inventory) {
    for (int i = 0; i < configs.size(); i++) {
      LibraryConfig config = configs.get(i);
      CollectionShelf shelf = libraries.shelves().get(i);
      if (config.watch()) {
        CollectionWatch.start(shelf.root(), QUIET, inventory::fresh).ifPresent(watches::add);
      }
      if (config.rescanMinutes() > 0) {
        timers.add(vertx.setPeriodic(Duration.ofMinutes(config.rescanMinutes()).toMillis(), id -> inventory.fresh()));
      }
    }
  }

  void stop(Vertx vertx) {
    timers.forEach(vertx::cancelTimer);
    watches.forEach(CollectionWatch::close);
  }
}
