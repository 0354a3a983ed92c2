package io.mangacircus.scraper.source;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import java.nio.file.Path;
import java.util.Set;

/**
 * The scraper's public word on configured sources, for whoever checks a configuration before start-up (the
 * launcher): it asks the source registry, so no one outside the scraper knows the source types.
 */
public final class ScraperSources {

  /** The name of the source the built-in demo site serves when {@code scraper.demo.enabled} is on. */
  public static final String DEMO_SOURCE = "demo";

  private ScraperSources() {
  }

  /** The source types this version knows, sorted. */
  public static Set<String> types() {
    return SourceTypes.names();
  }

  /**
   * Checks one configured source: its type, its options (an HTML definition is loaded and checked), its base URL and
   * its own proxy.
   * Relative paths start at the working directory.
   *
   * @return the source's effective settings (its type's defaults merged in)
   * @throws io.mangacircus.contracts.InvalidConfigException naming {@code scraper.sources.<name>...}
   */
  public static SourceConfig check(String name, SourceConfig source, ScraperConfig scraper) {
    boolean servedHere = DEMO_SOURCE.equals(name) && scraper.demo().enabled();
    SourceConfig effective = SourceTypes.check(name, source, servedHere, Path.of("").toAbsolutePath());
    if (source.proxy() != null) {
      SourceProxy.of("scraper.sources." + name + ".proxy", source.proxy(), System::getenv,
          Path.of("").toAbsolutePath());
    }
    return effective;
  }

  /**
   * Checks {@code scraper.proxy}, the default outbound proxy: its URL, and that its password can be read from the
   * environment or its file.
   *
   * @throws io.mangacircus.contracts.InvalidConfigException naming {@code scraper.proxy...}
   */
  public static void checkProxy(ScraperConfig scraper) {
    if (scraper.proxy() != null) {
      SourceProxy.of("scraper.proxy", scraper.proxy(), System::getenv, Path.of("").toAbsolutePath());
    }
  }
}
