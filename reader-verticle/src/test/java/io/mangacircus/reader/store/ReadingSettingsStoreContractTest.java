package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Reading settings on each engine: per user and series beside the user's defaults, gone with the user. */
@ParameterizedClass
@EnumSource(Engine.class)
class ReadingSettingsStoreContractTest {

  @Parameter
  Engine engine;

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-12-01T10:00:00Z");
  private final ReadingSettings paged = new ReadingSettings("double", "rtl", "height", true, false);
  private final ReadingSettings strip = new ReadingSettings("strip", "ltr", "width", false, true);
  private ContractDatabase database;
  private ReadingSettingsStore store;
  private long alice;

  @BeforeEach
  void open() throws Exception {
    database = ContractDatabase.fresh(engine, dir);
    alice = database.stores().users().createUser("alice", "hash", "reader", now);
    store = database.stores().readingSettings();
  }

  @AfterEach
  void close() throws Exception {
    database.close();
  }

  @Test
  void aSeriesChoiceAndTheDefaultsAreKeptApartAndReplacedInPlace() throws Exception {
    store.saveDefaults(alice, strip, now);
    store.saveSeries(alice, "moon", strip, now);
    store.saveSeries(alice, "moon", paged, now);

    assertThat(store.series(alice, "moon")).contains(paged);
    assertThat(store.defaults(alice)).contains(strip);
    assertThat(store.series(alice, "sun")).isEmpty();
    assertThat(store.deleteSeries(alice, "moon")).isTrue();
    assertThat(store.deleteSeries(alice, "moon")).isFalse();
    assertThat(store.series(alice, "moon")).isEmpty();
    assertThat(store.defaults(alice)).contains(strip);
    assertThatThrownBy(() -> store.saveSeries(alice, "", paged, now)).as("an empty series id would be the defaults")
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyValueOfEverySettingIsReadBackAsSaved() throws Exception {
    for (String layout : ReadingSettings.LAYOUTS) {
      for (String fit : ReadingSettings.FITS) {
        ReadingSettings settings = new ReadingSettings(layout, "rtl", fit, layout.length() % 2 == 0,
            fit.length() % 2 == 0);
        store.saveSeries(alice, layout + "-" + fit, settings, now);
        assertThat(store.series(alice, layout + "-" + fit)).contains(settings);
      }
    }
    store.saveDefaults(alice, new ReadingSettings("auto", "ltr", "original", true, true), now);
    assertThat(store.defaults(alice)).contains(new ReadingSettings("auto", "ltr", "original", true, true));
  }

  @Test
  void aUsersSettingsGoWithTheUser() throws Exception {
    long bob = database.stores().users().createUser("bob", "hash", "reader", now);
    store.saveDefaults(alice, strip, now);
    store.saveSeries(alice, "moon", paged, now);
    store.saveSeries(bob, "moon", strip, now);

    database.deleteUser(alice);

    assertThat(store.defaults(alice)).as("defaults left after their user was deleted").isEmpty();
    assertThat(store.series(alice, "moon")).as("settings left after their user was deleted").isEmpty();
    assertThat(store.series(bob, "moon")).contains(strip);
  }
}
