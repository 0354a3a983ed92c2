package io.mangacircus.scraper.source;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.Set;

/** Builds source adapters from configuration. */
public final class Sources {

  /** The adapter types this version knows. */
  public static final Set<String> TYPES = Set.of("demo");

  /** The User-Agent every source request carries: honest, never spoofed. */
  public static final String USER_AGENT = "MangaCircus/0.1 (self-hosted manga reader)";

  private Sources() {
  }

  /** An HTTP client for one lane or one recovery pass. */
  public static WebClient client(Vertx vertx) {
    return WebClient.create(vertx, new WebClientOptions().setUserAgent(USER_AGENT)
        .setConnectTimeout(10_000).setFollowRedirects(true));
  }

  /** The adapter for a configured source. */
  public static Source create(String name, SourceConfig source, ScraperConfig config, WebClient client) {
    return switch (source.type()) {
      case "demo" -> new DemoSource(name, source.baseUrl(), client, config.metadataTimeoutSeconds() * 1000,
          config.pageTimeoutSeconds() * 1000, source.challengeMarkers());
      default -> throw new IllegalArgumentException("source " + name + ": unknown type '" + source.type()
          + "' (known: " + TYPES + ")");
    };
  }
}
