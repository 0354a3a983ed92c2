package io.mangacircus.scraper.source;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.time.InstantSource;

/**
 * What a {@link SourceType} builds an adapter from: the source's name and effective settings, the HTTP client and
 * clock, the request timeouts and the request lines shared per site within this process.
 *
 * @param lines request lines by site (e.g. one per MangaDex API root), shared by every adapter of this process
 */
public record SourceSetup(String name, SourceConfig config, Vertx vertx, WebClient client, InstantSource clock,
    long metadataTimeoutMs, long pageTimeoutMs, RequestLines lines) {

  /** The source's HTTP pipeline, with its challenge markers. */
  public SourceHttp http() {
    return new SourceHttp(client, clock, config.challengeMarkers());
  }
}
