package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kept inventory survives a restart; one that does not parse is ignored and never overwritten. */
class InventoryCacheTest {

  @TempDir
  Path data;

  private static final LibraryInventory.Snapshot SNAPSHOT = new LibraryInventory.Snapshot(
      Instant.parse("2026-11-29T10:00:00Z"), List.of(
          new SeriesEntry("circus-nights", "Circus Nights", "demo", "cn", 4, Instant.parse("2026-11-28T09:00:00Z")),
          new SeriesEntry("tent", "Tent \"Quoted\"", "demo", "t", 1, Instant.EPOCH)));

  @Test
  void aKeptInventoryIsReadBackAsItWasWritten() throws IOException {
    new InventoryCache(data).save(SNAPSHOT);

    assertThat(new InventoryCache(data).load()).contains(SNAPSHOT);
    assertThat(Files.readString(data.resolve("library-inventory.json"))).contains("\"schema\" : 1");
    try (var files = Files.list(data)) {
      assertThat(files).as("no temporary file is left").hasSize(1);
    }
  }

  @Test
  void noFileMeansNoInventoryAndANewOneIsWritten() {
    InventoryCache cache = new InventoryCache(data);

    assertThat(cache.load()).isEmpty();
    cache.save(SNAPSHOT);
    assertThat(data.resolve("library-inventory.json")).exists();
  }

  @Test
  void aFileThatDoesNotParseIsIgnoredAndNeverOverwritten() throws IOException {
    for (String unusable : List.of("{\"schema\": 1, \"series\": [", "[]", "{\"schema\": 2, \"scannedAt\": "
        + "\"2026-11-29T10:00:00Z\", \"series\": []}", "{\"schema\": 1, \"scannedAt\": \"2026-11-29T10:00:00Z\", "
        + "\"series\": [{\"id\": \"../etc\", \"title\": \"x\", \"source\": \"s\", \"titleId\": \"t\", \"chapters\": 1, "
        + "\"updatedAt\": \"2026-11-29T10:00:00Z\"}]}", "{\"schema\": 1, \"scannedAt\": \"yesterday\", \"series\": []}")) {
      Files.writeString(data.resolve("library-inventory.json"), unusable);
      InventoryCache cache = new InventoryCache(data);

      assertThat(cache.load()).as(unusable).isEmpty();
      cache.save(SNAPSHOT);
      assertThat(Files.readString(data.resolve("library-inventory.json"))).as(unusable).isEqualTo(unusable);
    }
  }
}
