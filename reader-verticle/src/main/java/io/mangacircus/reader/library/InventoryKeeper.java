package io.mangacircus.reader.library;

import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands inventories worth keeping to the keeper on the executor, one write at a time: inventories that arrive while a
 * write is under way are coalesced, and only the newest of them is written next (a burst of publications is one or
 * two writes, never one per chapter, and an older inventory never overwrites a newer one). A keeper that throws is
 * logged and the inventory goes on.
 */
final class InventoryKeeper {

  /** The inventory's own logger: these lines are about keeping it. */
  private static final Logger LOG = LoggerFactory.getLogger(LibraryInventory.class);

  private final Executor executor;
  private volatile Consumer<LibraryInventory.Snapshot> keeper = snapshot -> { };
  /** The newest inventory to hand to the keeper once the write under way is done; null when there is none. */
  private LibraryInventory.Snapshot pending;
  /** Whether a keeper write is under way or about to start. */
  private boolean writing;

  InventoryKeeper(Executor executor) {
    this.executor = executor;
  }

  /** Where inventories go from now on (it may block: it runs on the executor). */
  void keepWith(Consumer<LibraryInventory.Snapshot> keeper) {
    this.keeper = keeper;
  }

  /** Hands {@code snapshot} (nothing when null) to the keeper, after the write under way if any. */
  synchronized void keepLater(LibraryInventory.Snapshot snapshot) {
    if (snapshot == null) {
      return;
    }
    pending = snapshot;
    if (writing) {
      return;
    }
    writing = true;
    executor.execute(this::writePending);
  }

  private void writePending() {
    while (true) {
      LibraryInventory.Snapshot snapshot;
      synchronized (this) {
        snapshot = pending;
        pending = null;
        if (snapshot == null) {
          writing = false;
          return;
        }
      }
      try {
        keeper.accept(snapshot);
      } catch (RuntimeException e) {
        LOG.warn("[LIBRARY] the inventory could not be kept for the next start: {}", e.getMessage());
      }
    }
  }
}
