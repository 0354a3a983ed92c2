package io.mangacircus.reader.store;

import io.mangacircus.reader.store.StoreEngines.Engine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On PostgreSQL the stores list text in the order of its bytes, as SQLite does, even where the database orders text
 * by a language's rules (a server initialised with {@code en_US.UTF-8}, as most are): here the columns are given
 * ICU's English collation, since the test server's own is byte order.
 */
class PostgresTextOrderTest {

  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

  /** Names whose byte order differs from English order (case, punctuation, accents). */
  private static final List<String> SHUFFLED = List.of("b-side", "Zebra", "été", "a", "bside", "_under");
  private static final List<String> BYTE_ORDER = List.of("Zebra", "_under", "a", "b-side", "bside", "été");

  private static final List<String> ORDERED_COLUMNS = List.of("series_alerts.series", "series_merges.series",
      "tracker_accounts.tracker", "tracker_links.series", "tracker_links.tracker", "tracker_outbox.tracker",
      "tracker_outbox.series");

  @TempDir
  Path dir;

  @Test
  void listsComeInByteOrderWhereTheDatabaseOrdersTextAsEnglish() throws Exception {
    try (ContractDatabase database = ContractDatabase.fresh(Engine.POSTGRESQL, dir)) {
      for (String column : ORDERED_COLUMNS) {
        String[] table = column.split("\\.");
        database.execute("ALTER TABLE " + table[0] + " ALTER COLUMN " + table[1] + " TYPE TEXT COLLATE \"en-x-icu\"");
      }
      ReaderStores stores = database.stores();
      long ann = stores.users().createUser("ann", "hash", "reader", NOW);
      for (String name : SHUFFLED) {
        stores.alerts().setSeriesAlert(ann, name, true, NOW);
        stores.merges().merge(name, "into", NOW);
        stores.trackers().saveAccount(new TrackerAccount(ann, name, "v1:sealed", null, null, "1", "Ann", false, "",
            NOW));
        stores.trackers().saveLink(TrackerLink.of(ann, name, "moon", "1", "Moon", false, NOW));
        stores.trackers().saveLink(TrackerLink.of(ann, "anilist", name, "1", "", false, NOW));
        stores.trackers().requestUpdate(ann, name, "moon", NOW, NOW);
      }

      // Every listing is checked, each naming what it lists when out of order.
      SoftAssertions listed = new SoftAssertions();
      listed.assertThat(stores.alerts().seriesAlerts(ann)).as("series alerts").containsExactlyElementsOf(BYTE_ORDER);
      listed.assertThat(stores.merges().merges().keySet()).as("merges").containsExactlyElementsOf(BYTE_ORDER);
      listed.assertThat(stores.trackers().accounts(ann)).as("tracker accounts").extracting(TrackerAccount::tracker)
          .containsExactlyElementsOf(BYTE_ORDER);
      listed.assertThat(stores.trackers().links(ann, "moon")).as("a series' links").extracting(TrackerLink::tracker)
          .containsExactlyElementsOf(BYTE_ORDER);
      listed.assertThat(stores.trackers().links(ann)).as("a user's links").extracting(TrackerLink::series)
          .filteredOn(series -> !series.equals("moon")).containsExactlyElementsOf(BYTE_ORDER);
      listed.assertThat(stores.trackers().pendingByTracker().keySet()).as("pending by tracker")
          .containsExactlyElementsOf(BYTE_ORDER);
      listed.assertThat(stores.trackers().dueUpdates(NOW, 10)).extracting(TrackerUpdate::tracker)
          .as("due updates, due and requested at the same time").containsExactlyElementsOf(BYTE_ORDER);
      listed.assertAll();
    }
  }
}
