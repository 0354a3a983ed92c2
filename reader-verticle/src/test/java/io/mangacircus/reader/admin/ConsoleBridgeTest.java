package io.mangacircus.reader.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.Addresses;
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
}
