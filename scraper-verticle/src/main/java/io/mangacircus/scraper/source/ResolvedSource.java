package io.mangacircus.scraper.source;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.html.HtmlDefinition;
import io.mangacircus.scraper.source.html.HtmlSource;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;

/**
 * A configured source made ready to run: its effective settings (for type {@code html}: base URL, pacing defaults
 * and challenge markers merged from its definition) and what is needed to build its adapter without reading files
 * again. Built by {@link Sources#resolve}.
 *
 * @param name the source's name
 * @param config the effective settings the lanes, pacing and views use
 * @param seriesFolderPrefix put before the series folder name of its chapters in the library; empty for none
 * @param definition the loaded HTML definition, or null for other types
 * @param scraper the scraper's settings (timeouts)
 */
public record ResolvedSource(String name, SourceConfig config, String seriesFolderPrefix, HtmlDefinition definition,
    ScraperConfig scraper) {

  /** The adapter, on its own HTTP client; {@code vertx} runs the HTML adapter's request spacing. */
  public Source create(Vertx vertx, WebClient client) {
    long metadataTimeoutMs = scraper.metadataTimeoutSeconds() * 1000;
    long pageTimeoutMs = scraper.pageTimeoutSeconds() * 1000;
    return switch (config.type()) {
      case "demo" -> new DemoSource(name, config.baseUrl(), client, metadataTimeoutMs, pageTimeoutMs,
          config.challengeMarkers());
      case "html" -> new HtmlSource(name, definition, config.baseUrl(), config.challengeMarkers(), config.pageDelayMs(),
          vertx, client, metadataTimeoutMs, pageTimeoutMs);
      case "local" -> new LocalImportSource(name, Sources.localFolder(name, config));
      case "mangadex" -> {
        String api = io.mangacircus.scraper.source.mangadex.MangaDexSource.apiBaseUrl(config.baseUrl());
        yield new io.mangacircus.scraper.source.mangadex.MangaDexSource(name, api,
            io.mangacircus.scraper.source.mangadex.MangaDexOptions.of("scraper.sources." + name + ".options",
                config.options()), client, io.mangacircus.scraper.source.mangadex.MangaDexSource.sharedLine(api),
            java.time.InstantSource.system(), metadataTimeoutMs, pageTimeoutMs, config.challengeMarkers());
      }
      default -> throw new IllegalArgumentException("source " + name + ": unknown type '" + config.type()
          + "' (known: " + Sources.TYPES + ")");
    };
  }
}
