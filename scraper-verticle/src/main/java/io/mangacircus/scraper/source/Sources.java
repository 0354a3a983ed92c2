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
  public static final Set<String> TYPES = Set.of("demo", "local");

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
      case "local" -> new LocalImportSource(name, localFolder(name, source));
      default -> throw new IllegalArgumentException("source " + name + ": unknown type '" + source.type()
          + "' (known: " + TYPES + ")");
    };
  }

  /**
   * Checks a source's adapter options before anything starts.
   *
   * @throws IllegalArgumentException naming the source and the option that is wrong
   */
  public static void checkOptions(String name, SourceConfig source) {
    if ("local".equals(source.type())) {
      localFolder(name, source);
    }
  }

  /** The {@code folder} option of a {@code local} source: required, an existing folder; no other option allowed. */
  private static java.nio.file.Path localFolder(String name, SourceConfig source) {
    for (String key : source.options().keySet()) {
      if (!key.equals("folder")) {
        throw new IllegalArgumentException("source " + name + ": unknown option '" + key + "' (type local knows: folder)");
      }
    }
    if (!(source.options().get("folder") instanceof String folder) || folder.isBlank()) {
      throw new IllegalArgumentException("source " + name + ": type local needs options.folder, the import folder");
    }
    java.nio.file.Path path = java.nio.file.Path.of(folder);
    if (!java.nio.file.Files.isDirectory(path)) {
      throw new IllegalArgumentException("source " + name + ": options.folder " + path.toAbsolutePath()
          + " is not a folder");
    }
    return path;
  }
}
