package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Type {@code mangadex}: the MangaDex JSON API ({@link MangaDexOptions}). Every adapter of one API root in this
 * process waits in the same request line, so together they keep MangaDex's per-client limits.
 */
public final class MangaDexType implements SourceType<MangaDexOptions> {

  @Override
  public String name() {
    return "mangadex";
  }

  @Override
  public MangaDexOptions options(String key, SourceConfig source, Path workingDir) {
    return MangaDexOptions.of(key + ".options", source.options());
  }

  @Override
  public Optional<String> defaultBaseUrl(MangaDexOptions options) {
    return Optional.of(MangaDexSource.DEFAULT_BASE_URL);
  }

  @Override
  public Optional<String> titlePage() {
    return Optional.of(MangaDexSearch.TITLE_PAGE + "{titleId}");
  }

  @Override
  public Source create(SourceSetup setup, MangaDexOptions options) {
    String api = MangaDexSource.apiBaseUrl(setup.config().baseUrl());
    return new MangaDexSource(setup.name(), api, options, setup.client(), setup.lines().line(api), setup.clock(),
        setup.metadataTimeoutMs(), setup.pageTimeoutMs(), setup.config().challengeMarkers());
  }
}
