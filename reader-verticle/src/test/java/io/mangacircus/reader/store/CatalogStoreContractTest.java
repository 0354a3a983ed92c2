package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.store.CatalogStore.Catalog;
import io.mangacircus.reader.store.CatalogStore.Collection;
import io.mangacircus.reader.store.CatalogStore.Cover;
import io.mangacircus.reader.store.CatalogStore.SeriesMeta;
import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The catalog on each engine: series metadata and collections kept across a reopen and seen by a second reader,
 * collections in the order they were made, covers stored byte for byte and removed with their collection, and an
 * import that writes only into an empty catalog, once when two readers import at the same time.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class CatalogStoreContractTest {

  /** Bytes no text encoding would keep: every byte value, and a zero first. */
  private static final byte[] IMAGE = image();

  @Parameter
  Engine engine;

  @TempDir
  Path dir;

  private ContractDatabase database;

  @BeforeEach
  void open() {
    database = ContractDatabase.fresh(engine, dir);
  }

  @AfterEach
  void close() throws Exception {
    database.close();
  }

  private CatalogStore catalog() {
    return database.stores().catalog();
  }

  @Test
  void seriesMetadataIsKeptAcrossAReopenReplacedAndNoneWhenNeverSet() throws Exception {
    assertThat(catalog().catalog().isEmpty()).isTrue();
    catalog().putSeries("circus-nights", new SeriesMeta("Under canvas.", List.of("circus", "night")));
    catalog().putSeries("rated", new SeriesMeta("", List.of(), "12+"));
    catalog().putSeries("cleared", new SeriesMeta("Was rated.", List.of(), "18"));
    catalog().putSeries("cleared", new SeriesMeta("Was rated.", List.of("x"), "unrated"));

    database.reopen();

    assertThat(catalog().series("circus-nights")).isEqualTo(new SeriesMeta("Under canvas.", List.of("circus",
        "night")));
    assertThat(catalog().series("rated").rating()).contains(AgeRating.TWELVE_PLUS);
    assertThat(catalog().series("cleared")).isEqualTo(new SeriesMeta("Was rated.", List.of("x")));
    assertThat(catalog().series("cleared").ageRating()).as("unrated is no admin rating").isNull();
    assertThat(catalog().series("unknown")).isEqualTo(SeriesMeta.none());
    assertThat(catalog().catalog().series()).containsOnlyKeys("circus-nights", "rated", "cleared");
    assertThat(database.secondReader().catalog().series("circus-nights").tags()).as("another reader")
        .containsExactly("circus", "night");
  }

  @Test
  void collectionsKeepTheOrderTheyWereMadeInAndAReplacementKeepsItsPlaceAndCover() throws Exception {
    catalog().putCollection("shelf", "Shelf", List.of("a", "b"));
    catalog().putCollection("favourites", "Favourites", List.of());
    catalog().putCollection("attic", "Attic", List.of("c"));
    assertThat(catalog().putCover("favourites", IMAGE, "png")).hasValueSatisfying(c -> assertThat(c.cover())
        .isEqualTo("favourites.png"));

    Collection replaced = catalog().putCollection("favourites", "Best", List.of("b", "a"));

    assertThat(replaced).isEqualTo(new Collection("favourites", "Best", List.of("b", "a"), "favourites.png"));
    database.reopen();
    assertThat(catalog().catalog().collections()).extracting(Collection::id)
        .containsExactly("shelf", "favourites", "attic");
    assertThat(catalog().collection("favourites")).contains(replaced);
    assertThat(catalog().collection("shelf")).contains(new Collection("shelf", "Shelf", List.of("a", "b"), null));
    assertThat(catalog().collection("nope")).isEmpty();
  }

  @Test
  void aCoverIsKeptByteForByteReplacedAndRemovedWithItsCollection() throws Exception {
    catalog().putCollection("shelf", "Shelf", List.of());
    assertThat(catalog().cover("shelf")).isEmpty();
    catalog().putCover("shelf", new byte[] {1, 2, 3}, "jpg");
    catalog().putCover("shelf", IMAGE, "png");

    database.reopen();
    assertThat(catalog().cover("shelf")).hasValueSatisfying(cover -> {
      assertThat(cover.image()).isEqualTo(IMAGE);
      assertThat(cover.extension()).isEqualTo("png");
    });
    assertThat(database.secondReader().catalog().cover("shelf")).hasValueSatisfying(cover -> assertThat(cover.image())
        .as("another reader").isEqualTo(IMAGE));

    assertThat(catalog().deleteCollection("shelf")).isTrue();
    assertThat(catalog().deleteCollection("shelf")).isFalse();
    assertThat(catalog().cover("shelf")).isEmpty();
    assertThat(catalog().putCover("shelf", new byte[] {1}, "png")).as("no collection, no cover").isEmpty();
    catalog().putCollection("shelf", "Shelf again", List.of());
    assertThat(catalog().cover("shelf")).as("a collection made again has no cover of its own yet").isEmpty();
    assertThat(catalog().collection("shelf")).hasValueSatisfying(c -> assertThat(c.cover()).isNull());
  }

  @Test
  void anImportWritesEverythingIntoAnEmptyCatalogAndNothingIntoOneThatHoldsACatalog() throws Exception {
    Catalog imported = new Catalog(Map.of("moon", new SeriesMeta("Moons.", List.of("space"), "15")),
        List.of(new Collection("z-last-by-name", "Z", List.of("moon"), null),
            new Collection("a-second", "A", List.of(), null)));

    assertThat(catalog().importIfEmpty(imported, Map.of("a-second", new Cover(IMAGE, "jpg")))).isTrue();

    database.reopen();
    Catalog read = catalog().catalog();
    assertThat(read.series()).isEqualTo(imported.series());
    assertThat(read.collections()).extracting(Collection::id).as("in the file's order")
        .containsExactly("z-last-by-name", "a-second");
    assertThat(read.collections().get(1).cover()).isEqualTo("a-second.jpg");
    assertThat(catalog().cover("a-second").orElseThrow().image()).isEqualTo(IMAGE);
    assertThat(catalog().importIfEmpty(new Catalog(Map.of("sun", SeriesMeta.none()), List.of()), Map.of()))
        .as("a catalog is already there").isFalse();
    assertThat(catalog().catalog().series()).containsOnlyKeys("moon");
    catalog().putCollection("new", "New", List.of());
    assertThat(catalog().catalog().collections()).extracting(Collection::id).as("made after the imported ones")
        .containsExactly("z-last-by-name", "a-second", "new");
  }

  @Test
  void aCollectionAloneIsACatalogThatAnImportLeavesAlone() throws Exception {
    catalog().putCollection("shelf", "Shelf", List.of());

    assertThat(catalog().importIfEmpty(new Catalog(Map.of("sun", SeriesMeta.none()), List.of()), Map.of())).isFalse();

    assertThat(catalog().catalog().series()).isEmpty();
  }

  @Test
  void twoReadersImportingAtOnceWriteOneCatalogAndTheOtherIsToldItIsThere() throws Exception {
    // Enough rows that one import is still writing when the other looks whether a catalog is there.
    Map<String, SeriesMeta> series = new HashMap<>();
    for (int i = 0; i < 2_000; i++) {
      series.put("series-" + i, new SeriesMeta("Series " + i + ".", List.of("tag")));
    }
    Catalog imported = new Catalog(series, List.of(new Collection("shelf", "Shelf", List.of("series-1"), null)));
    CatalogStore first = catalog();
    CatalogStore second = database.secondReader().catalog();
    ExecutorService both = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch start = new CountDownLatch(1);
      Future<Boolean> a = both.submit(() -> {
        start.await();
        return first.importIfEmpty(imported, Map.of());
      });
      Future<Boolean> b = both.submit(() -> {
        start.await();
        return second.importIfEmpty(imported, Map.of());
      });
      start.countDown();

      assertThat(List.of(a.get(), b.get())).containsExactlyInAnyOrder(true, false);
    } finally {
      both.shutdownNow();
    }
    assertThat(catalog().catalog().series()).hasSize(2_000);
  }

  private static byte[] image() {
    byte[] bytes = new byte[300];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    return bytes;
  }
}
