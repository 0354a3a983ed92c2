package io.mangacircus.scraper.source.suwayomi;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import java.nio.file.Path;

/**
 * Type {@code suwayomi}: one source of a Suwayomi server the user runs (a Mihon extension), read over its GraphQL API
 * ({@link SuwayomiOptions}; {@code baseUrl} is the server's address, its web UI subpath included).
 */
public final class SuwayomiType implements SourceType<SuwayomiOptions> {

  @Override
  public String name() {
    return "suwayomi";
  }

  @Override
  public SuwayomiOptions options(String key, SourceConfig source, Path workingDir) {
    return SuwayomiOptions.of(key + ".options", source.options(), workingDir, System::getenv);
  }

  @Override
  public String describe(SuwayomiOptions options) {
    return "Suwayomi source " + options.sourceId() + ", auth " + options.auth().wire()
        + (options.username() == null ? "" : " as " + options.username());
  }

  @Override
  public Source create(SourceSetup setup, SuwayomiOptions options) {
    String base = SuwayomiServer.withoutTrailingSlash(setup.config().baseUrl());
    return new SuwayomiSource(setup.name(), new SuwayomiServer(setup.name(), base, options, setup.http(),
        setup.metadataTimeoutMs(), setup.pageTimeoutMs()), setup.vertx());
  }
}
