package io.mangacircus.scraper.source;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.time.InstantSource;
import java.util.function.Function;

/**
 * A configured source made ready to run: its effective settings (its type's defaults merged in, e.g. an HTML
 * definition's base URL, pacing and challenge markers) and the factory of its adapter, with its options already read
 * and checked. Built by {@link SourceTypes#resolve}.
 *
 * @param name the source's name
 * @param config the effective settings the lanes, pacing and views use
 * @param seriesFolderPrefix put before the series folder name of its chapters in the library; empty for none
 * @param description one line for the start-up log about its options; empty for none
 * @param proxy the outbound proxy its requests go through; null for none
 */
public record ResolvedSource(String name, SourceConfig config, String seriesFolderPrefix, String description,
    Function<SourceSetup, Source> factory, SourceProxy proxy) {

  /** The adapter, on {@code client}; {@code vertx} runs its request spacing, {@code lines} are shared per site. */
  public Source create(Vertx vertx, WebClient client, InstantSource clock, ScraperConfig scraper, RequestLines lines) {
    return factory.apply(new SourceSetup(name, config, vertx, client, clock, scraper.metadataTimeoutSeconds() * 1000,
        scraper.pageTimeoutSeconds() * 1000, lines));
  }
}
