package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The admin's series merges on each engine: kept across a reopen, replaced, removed, never into itself. */
@ParameterizedClass
@EnumSource(Engine.class)
class SeriesMergeStoreContractTest {

  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

  @Parameter
  Engine engine;

  @TempDir
  Path dir;

  private ContractDatabase database;

  @BeforeEach
  void open() throws Exception {
    database = ContractDatabase.fresh(engine, dir);
  }

  @AfterEach
  void close() throws Exception {
    database.close();
  }

  @Test
  void mergesAreKeptAcrossAReopenReplacedAndRemoved() throws Exception {
    SeriesMergeStore merges = database.stores().merges();
    merges.merge("sun-shelf", "moon", NOW);
    merges.merge("moon-shelf", "moon", NOW);
    merges.merge("sun-shelf", "sun", NOW);
    merges.merge("Moon-Shelf", "moon", NOW);

    database.reopen();
    SeriesMergeStore reopened = database.stores().merges();
    assertThat(reopened.merges()).as("by merged series id, in the order of its bytes").containsExactly(
        Map.entry("Moon-Shelf", "moon"), Map.entry("moon-shelf", "moon"), Map.entry("sun-shelf", "sun"));
    assertThat(reopened.unmerge("moon-shelf")).isTrue();
    assertThat(reopened.unmerge("moon-shelf")).isFalse();
    assertThat(reopened.merges()).containsOnlyKeys("Moon-Shelf", "sun-shelf");
    assertThatThrownBy(() -> reopened.merge("moon", "moon", NOW)).as("the table refuses a merge into itself")
        .isInstanceOf(StoreException.class);
    assertThat(reopened.merges()).containsOnlyKeys("Moon-Shelf", "sun-shelf");
  }
}
