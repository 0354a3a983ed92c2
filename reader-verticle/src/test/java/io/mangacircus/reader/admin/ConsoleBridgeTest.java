package io.mangacircus.reader.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.Addresses;
import org.junit.jupiter.api.Test;

class ConsoleBridgeTest {

  @Test
  void onlyAnOriginOfTheSameHostAndPortIsThisSite() {
    assertThat(ConsoleBridge.sameHost("http://127.0.0.1:8080", "127.0.0.1:8080")).isTrue();
    assertThat(ConsoleBridge.sameHost("https://Manga.Example", "manga.example")).isTrue();

    assertThat(ConsoleBridge.sameHost("http://127.0.0.1:8081", "127.0.0.1:8080")).isFalse();
    assertThat(ConsoleBridge.sameHost("http://evil.example", "manga.example")).isFalse();
    assertThat(ConsoleBridge.sameHost("http://manga.example.evil.example", "manga.example")).isFalse();
    assertThat(ConsoleBridge.sameHost("null", "manga.example")).isFalse();
    assertThat(ConsoleBridge.sameHost("file://manga.example", "manga.example")).isFalse();
    assertThat(ConsoleBridge.sameHost("http://manga.example", null)).isFalse();
    assertThat(ConsoleBridge.sameHost("http://[bad", "manga.example")).isFalse();
  }

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
