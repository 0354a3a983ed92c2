package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.store.CatalogFileImport.Outcome;
import io.mangacircus.reader.store.CatalogStore.Collection;
import io.mangacircus.reader.store.CatalogStore.SeriesMeta;
import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * The data folder's {@code catalog.json} and {@code collection-covers/} of the versions before the database, on each
 * engine: imported once into an empty catalog and renamed, refused and left byte for byte when it does not parse, left
 * with a warning beside a database that holds a catalog.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class CatalogFileImportTest {

  private static final String CATALOG = """
      {
        "schema" : 1,
        "series" : {
          "circus-nights" : { "description" : "Under canvas.", "tags" : [ "circus" ], "ageRating" : "12" },
          "old" : { "description" : "Kept.", "tags" : [ "a" ] }
        },
        "collections" : [
          { "id" : "favourites", "name" : "Favourites", "series" : [ "circus-nights" ], "cover" : "favourites.png" },
          { "id" : "attic", "name" : "Attic", "series" : [ ], "cover" : null }
        ]
      }
      """;

  @Parameter
  Engine engine;

  @TempDir
  Path data;

  @TempDir
  Path databaseFolder;

  private ContractDatabase database;
  private final Logger logger = (Logger) LoggerFactory.getLogger(CatalogFileImport.class);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void open() {
    database = ContractDatabase.fresh(engine, databaseFolder);
    logger.setLevel(Level.INFO);
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void close() throws Exception {
    logger.detachAppender(logged);
    logger.setLevel(null);
    database.close();
  }

  private CatalogStore store() {
    return database.stores().catalog();
  }

  @Test
  void theFileAndItsCoversAreImportedOnceAndTheFileIsRenamedNotDeleted() throws Exception {
    Files.writeString(data.resolve("catalog.json"), CATALOG);
    byte[] cover = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2};
    Files.createDirectories(data.resolve("collection-covers"));
    Files.write(data.resolve("collection-covers/favourites.png"), cover);

    assertThat(CatalogFileImport.importOnce(store(), data)).isEqualTo(Outcome.IMPORTED);

    assertThat(store().series("circus-nights")).isEqualTo(new SeriesMeta("Under canvas.", List.of("circus"), "12"));
    assertThat(store().series("circus-nights").rating()).contains(AgeRating.TWELVE_PLUS);
    assertThat(store().series("old").description()).as("written before age ratings existed").isEqualTo("Kept.");
    assertThat(store().series("old").rating()).isEmpty();
    assertThat(store().catalog().collections()).containsExactly(
        new Collection("favourites", "Favourites", List.of("circus-nights"), "favourites.png"),
        new Collection("attic", "Attic", List.of(), null));
    assertThat(store().cover("favourites").orElseThrow().image()).isEqualTo(cover);
    assertThat(data.resolve("catalog.json")).doesNotExist();
    assertThat(data.resolve("catalog.json.imported")).hasContent(CATALOG);
    assertThat(data.resolve("collection-covers/favourites.png")).as("left as it is").hasBinaryContent(cover);
    assertThat(CatalogFileImport.importOnce(store(), data)).isEqualTo(Outcome.NO_FILE);
  }

  @Test
  void aFileBesideADatabaseThatHoldsACatalogIsLeftAsItIsWithOneWarning() throws Exception {
    store().putCollection("shelf", "Shelf", List.of());
    Files.writeString(data.resolve("catalog.json"), CATALOG);

    assertThat(CatalogFileImport.importOnce(store(), data)).isEqualTo(Outcome.LEFT);

    assertThat(data.resolve("catalog.json")).hasContent(CATALOG);
    assertThat(data.resolve("catalog.json.imported")).doesNotExist();
    assertThat(store().catalog().series()).isEmpty();
    assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
        .satisfies(e -> assertThat(e.getFormattedMessage()).contains(data.resolve("catalog.json").toString())
            .contains("was not imported"));
  }

  @Test
  void aCatalogThatFailsToParseIsNamedAndNeverOverwrittenNorRenamed() throws Exception {
    Path file = data.resolve("catalog.json");
    Files.writeString(file, "{\"schema\": 1, \"collections\": [ {\"id\": \"a\"");
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> CatalogFileImport.importOnce(store(), data))
        .isInstanceOf(CorruptStateFileException.class).hasMessageContaining("catalog.json")
        .hasMessageContaining("is not a valid catalog");

    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    assertThat(data.resolve("catalog.json.imported")).doesNotExist();
    assertThat(store().catalog().isEmpty()).isTrue();
  }

  @Test
  void aCatalogFromANewerVersionIsRefused() throws Exception {
    Files.writeString(data.resolve("catalog.json"), "{\"schema\": 9}");

    assertThatThrownBy(() -> CatalogFileImport.importOnce(store(), data))
        .isInstanceOf(CorruptStateFileException.class).hasMessageContaining("newer");
    assertThat(data.resolve("catalog.json")).exists();
  }

  @Test
  void aCatalogWithAnAgeRatingThatNamesNoRatingIsNamedAndLeft() throws Exception {
    Path file = data.resolve("catalog.json");
    Files.writeString(file, "{\"schema\": 1, \"series\": {\"s\": {\"ageRating\": \"13\"}}}");

    assertThatThrownBy(() -> CatalogFileImport.importOnce(store(), data))
        .isInstanceOf(CorruptStateFileException.class).hasMessageContaining("catalog.json");
    assertThat(file).exists();
    assertThat(store().catalog().isEmpty()).isTrue();
  }

  @Test
  void aCoverFileThatIsMissingLeavesItsCollectionWithoutACover() throws Exception {
    Files.writeString(data.resolve("catalog.json"), CATALOG);

    assertThat(CatalogFileImport.importOnce(store(), data)).isEqualTo(Outcome.IMPORTED);

    assertThat(store().collection("favourites")).hasValueSatisfying(c -> assertThat(c.cover()).isNull());
    assertThat(logged.list).anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("favourites")
        .contains("without a cover"));
  }
}
