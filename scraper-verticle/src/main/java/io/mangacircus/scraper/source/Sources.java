package io.mangacircus.scraper.source;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.mangadex.MangaDexOptions;
import io.mangacircus.scraper.source.mangadex.MangaDexSource;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;

/** Builds source adapters from configuration. */
public final class Sources {

  /** The adapter types this version knows. */
  public static final Set<String> TYPES = Set.of("demo", "mangadex");

  /** The User-Agent every source request carries: honest, never spoofed. */
  public static final String USER_AGENT = "MangaCircus/0.1 (self-hosted manga reader)";

  private Sources() {
  }

  /** An HTTP client for one lane or one recovery pass. */
  public static WebClient client(Vertx vertx) {
    return WebClient.create(vertx, new WebClientOptions().setUserAgent(USER_AGENT)
        .setConnectTimeout(10_000).setFollowRedirects(true));
  }

  /** The base URL a type uses when a source leaves {@code baseUrl} empty; empty when the type needs one. */
  public static Optional<String> defaultBaseUrl(String type) {
    return "mangadex".equals(type) ? Optional.of(MangaDexSource.DEFAULT_BASE_URL) : Optional.empty();
  }

  /**
   * Checks a source's adapter-specific settings (its {@code options}).
   *
   * @param key the source's key, e.g. {@code scraper.sources.mangadex}
   * @throws InvalidConfigException naming the bad option's full key
   */
  public static void validate(String key, SourceConfig source) {
    if ("mangadex".equals(source.type())) {
      MangaDexOptions.of(key + ".options", source.options());
    }
  }

  /** The adapter for a configured source. Its calls are made on a Vert.x context (a lane, a verticle). */
  public static Source create(String name, SourceConfig source, ScraperConfig config, WebClient client) {
    return switch (source.type()) {
      case "demo" -> new DemoSource(name, source.baseUrl(), client, config.metadataTimeoutSeconds() * 1000,
          config.pageTimeoutSeconds() * 1000, source.challengeMarkers());
      case "mangadex" -> {
        String api = MangaDexSource.apiBaseUrl(source.baseUrl());
        yield new MangaDexSource(name, api, MangaDexOptions.of("scraper.sources." + name + ".options",
            source.options()), client, MangaDexSource.sharedLine(api), InstantSource.system(),
            config.metadataTimeoutSeconds() * 1000, config.pageTimeoutSeconds() * 1000, source.challengeMarkers());
      }
      default -> throw new IllegalArgumentException("source " + name + ": unknown type '" + source.type()
          + "' (known: " + TYPES + ")");
    };
  }
}
