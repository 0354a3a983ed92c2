package io.mangacircus.reader.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.CatalogStore.SeriesMeta;
import io.mangacircus.reader.store.ReaderStores;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader's copy of the catalog over a real {@code reader.db}: its own changes show at once and are announced, and
 * another copy sees them once it reads the database again.
 */
class KeptCatalogTest {

  @TempDir
  Path data;

  private ReaderStores stores;

  @BeforeEach
  void open() {
    stores = ReaderStores.openSqlite(data.resolve("reader.db"));
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  @Test
  void aChangeShowsAtOnceIsAnnouncedOnceAndReachesAnotherCopyWhenItReloads() throws Exception {
    KeptCatalog here = KeptCatalog.load(stores.catalog());
    KeptCatalog there = KeptCatalog.load(stores.catalog());
    AtomicInteger announced = new AtomicInteger();
    here.tell(announced::incrementAndGet);

    here.putSeries("moon", new SeriesMeta("Moons.", List.of("space")));
    here.putCollection("shelf", "Shelf", List.of("moon"));
    here.putCover("shelf", new byte[] {1, 2}, "png");

    assertThat(here.series("moon").tags()).containsExactly("space");
    assertThat(here.collection("shelf")).hasValueSatisfying(c -> assertThat(c.cover()).isEqualTo("shelf.png"));
    assertThat(announced).hasValue(3);
    assertThat(there.series("moon")).as("not read again yet").isEqualTo(SeriesMeta.none());
    there.reload();
    assertThat(there.series("moon").description()).isEqualTo("Moons.");
    assertThat(there.catalog().collections()).hasSize(1);
    assertThat(there.cover("shelf").orElseThrow().image()).containsExactly(1, 2);
  }

  @Test
  void whatChangesNothingAnnouncesNothing() throws Exception {
    KeptCatalog here = KeptCatalog.load(stores.catalog());
    AtomicInteger announced = new AtomicInteger();
    here.tell(announced::incrementAndGet);

    assertThat(here.deleteCollection("nope")).isFalse();
    assertThat(here.putCover("nope", new byte[] {1}, "png")).isEmpty();

    assertThat(announced).hasValue(0);
  }
}
