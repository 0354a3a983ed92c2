package io.mangacircus.reader.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogStoreTest {

  @TempDir
  Path data;

  @Test
  void changesSurviveAReopen() throws Exception {
    CatalogStore store = CatalogStore.open(data);
    store.putSeries("circus-nights", new CatalogStore.SeriesMeta("Under canvas.", List.of("circus")));
    store.putCollection("favourites", "Favourites", List.of("circus-nights"));

    CatalogStore again = CatalogStore.open(data);

    assertThat(again.series("circus-nights").tags()).containsExactly("circus");
    assertThat(again.collection("favourites")).hasValueSatisfying(c -> assertThat(c.series())
        .containsExactly("circus-nights"));
    assertThat(again.series("unknown").description()).isEmpty();
  }

  @Test
  void aCatalogThatFailsToParseIsNamedAndNeverOverwritten() throws Exception {
    Path file = data.resolve("catalog.json");
    Files.writeString(file, "{\"schema\": 1, \"collections\": [ {\"id\": \"a\"");
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> CatalogStore.open(data)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("catalog.json");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void aCatalogFromANewerVersionIsRefused() throws Exception {
    Files.writeString(data.resolve("catalog.json"), "{\"schema\": 9}");

    assertThatThrownBy(() -> CatalogStore.open(data)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("newer");
  }

  @Test
  void deletingACollectionRemovesItsCover() throws Exception {
    CatalogStore store = CatalogStore.open(data);
    store.putCollection("shelf", "Shelf", List.of());
    store.putCover("shelf", new byte[] {1, 2, 3}, "png");
    assertThat(store.coverFile("shelf")).isPresent();

    assertThat(store.deleteCollection("shelf")).isTrue();

    assertThat(data.resolve("collection-covers/shelf.png")).doesNotExist();
    assertThat(store.putCover("shelf", new byte[] {1}, "png")).as("no collection, no cover").isEmpty();
  }

  @Test
  void anAdminsAgeRatingSurvivesAReopenAndIsLeftOutOfTheFileWhenThereIsNone() throws Exception {
    CatalogStore store = CatalogStore.open(data);
    store.putSeries("rated", new CatalogStore.SeriesMeta("", List.of(), "12+"));
    store.putSeries("plain", new CatalogStore.SeriesMeta("Plain.", List.of()));
    store.putSeries("cleared", new CatalogStore.SeriesMeta("", List.of(), "unrated"));

    CatalogStore again = CatalogStore.open(data);

    assertThat(again.series("rated").ageRating()).isEqualTo("12");
    assertThat(again.series("rated").rating()).contains(io.mangacircus.contracts.rating.AgeRating.TWELVE_PLUS);
    assertThat(again.series("plain").rating()).isEmpty();
    assertThat(again.series("cleared").ageRating()).as("unrated is no admin rating").isNull();
    assertThat(Files.readString(data.resolve("catalog.json"))).containsOnlyOnce("ageRating");
  }

  @Test
  void aCatalogWrittenBeforeAgeRatingsExistedStillOpens() throws Exception {
    Files.writeString(data.resolve("catalog.json"), """
        {"schema": 1, "series": {"old": {"description": "Kept.", "tags": ["a"]}}, "collections": []}
        """);

    CatalogStore store = CatalogStore.open(data);

    assertThat(store.series("old").description()).isEqualTo("Kept.");
    assertThat(store.series("old").rating()).isEmpty();
  }

  @Test
  void aCatalogWithAnAgeRatingThatNamesNoRatingIsNamedAndNeverOverwritten() throws Exception {
    Path file = data.resolve("catalog.json");
    Files.writeString(file, "{\"schema\": 1, \"series\": {\"s\": {\"ageRating\": \"13\"}}}");

    assertThatThrownBy(() -> CatalogStore.open(data)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("catalog.json");
  }
}
