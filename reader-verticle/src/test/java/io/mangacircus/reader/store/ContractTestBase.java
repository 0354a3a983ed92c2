package io.mangacircus.reader.store;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * What the store contract tests share: the engine they run on (each subclass is a {@code @ParameterizedClass} over
 * {@link Engine}), a fresh database of it per test, opened as {@link #stores}, and {@link #reopen()} for a restart.
 */
abstract class ContractTestBase {

  @Parameter
  Engine engine;

  @TempDir
  Path dir;

  final Instant now = Instant.parse("2026-11-29T10:00:00Z");

  private StoreEngines.FreshDatabase database;
  ReaderStores stores;

  @BeforeEach
  void openFreshDatabase() {
    database = StoreEngines.fresh(engine, dir);
    stores = database.open();
  }

  @AfterEach
  void closeStores() throws StoreException {
    stores.close();
  }

  /** Closes the stores and opens the same database again, as a restart of the reader does. */
  void reopen() throws StoreException {
    stores.close();
    stores = database.open();
  }
}
