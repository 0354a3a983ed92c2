package io.mangacircus.scraper.source.demo;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import java.nio.file.Path;

/** Type {@code demo}: the built-in demo site (or a copy of it at {@code baseUrl}); no options (any given are ignored). */
public final class DemoType implements SourceType<Void> {

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public Void options(String key, SourceConfig source, Path workingDir) {
    return null;
  }

  @Override
  public Source create(SourceSetup setup, Void options) {
    return new DemoSource(setup.name(), setup.config().baseUrl(), setup.http(), setup.metadataTimeoutMs(),
        setup.pageTimeoutMs());
  }
}
