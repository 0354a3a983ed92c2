package io.mangacircus.reader;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The reader service's typed configuration (the {@code reader} section of {@code conf/mangacircus.json}).
 *
 * @param adminToken bearer token that grants admin access to admin routes without a session; empty = disabled.
 *     Default empty; environment {@code MANGACIRCUS_ADMIN_TOKEN}. Never logged.
 * @param scraperRequestTimeoutMs timeout of the reader's requests to the scraper over the event bus, in
 *     milliseconds. Default 2000; 100..30000.
 */
public record ReaderConfig(String adminToken, long scraperRequestTimeoutMs) {

  @JsonCreator
  public ReaderConfig(@JsonProperty(value = "adminToken", required = true) String adminToken,
      @JsonProperty(value = "scraperRequestTimeoutMs", required = true) long scraperRequestTimeoutMs) {
    this.adminToken = adminToken == null ? "" : adminToken;
    this.scraperRequestTimeoutMs = scraperRequestTimeoutMs;
  }

  /** Whether an admin bearer token is configured. */
  public boolean adminTokenEnabled() {
    return !adminToken.isEmpty();
  }

  /** The token is never printed, even by accident. */
  @Override
  public String toString() {
    return "ReaderConfig[adminToken=" + (adminTokenEnabled() ? "<set>" : "<none>")
        + ", scraperRequestTimeoutMs=" + scraperRequestTimeoutMs + "]";
  }
}
