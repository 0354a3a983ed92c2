package io.mangacircus.reader.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.OperatorOperation;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class ConsoleBridgeTest {

  @Test
  void theAllowListsHoldOnlyOperatorRequestsInAndEventsOut() {
    assertThat(ConsoleBridge.INBOUND).allMatch(a -> a.startsWith("mc.scraper."))
        .doesNotContain(Addresses.SCRAPER_PING, Addresses.SCRAPER_DOWNLOADS_YIELD)
        .doesNotHaveDuplicates();
    assertThat(ConsoleBridge.OUTBOUND).containsExactlyInAnyOrder(Addresses.SCRAPER_JOB_PROGRESS,
        Addresses.SCRAPER_CIRCUIT_STATE, Addresses.SCRAPER_INCIDENT_RECORDED, Addresses.LAUNCHER_STATUS,
        Addresses.LIBRARY_PUBLISHED);
    assertThat(ConsoleBridge.INBOUND).doesNotContainAnyElementsOf(ConsoleBridge.OUTBOUND);
  }

  @Test
  void theConsolesAddressTableNamesExactlyWhatTheBridgePermits() {
    JsonObject table = ConsoleBridge.addressTable();

    assertThat(table.getJsonObject("requests").getMap().values()).containsExactlyInAnyOrderElementsOf(
        ConsoleBridge.INBOUND);
    assertThat(table.getJsonObject("requests").getString("JOBS_LIST")).isEqualTo(Addresses.SCRAPER_JOBS_LIST);
    assertThat(table.getJsonObject("requests").fieldNames()).hasSize(OperatorOperation.values().length);
    assertThat(table.getJsonObject("events").getMap().values()).containsExactlyInAnyOrderElementsOf(
        ConsoleBridge.OUTBOUND);
    assertThat(table.getJsonObject("events").getString("JOB_PROGRESS")).isEqualTo(Addresses.SCRAPER_JOB_PROGRESS);
  }
}
