package io.mangacircus.scraper.source.local;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import io.mangacircus.scraper.source.SourceTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** Type {@code local}: titles imported from a folder on disk ({@code options.folder}, docs/sources.md). */
public final class LocalType implements SourceType<Path> {

  @Override
  public String name() {
    return "local";
  }

  /** The {@code folder} option: required, an existing folder; no other option allowed. */
  @Override
  public Path options(String key, SourceConfig source, Path workingDir) {
    SourceTypes.knownOptions(key, source, name(), Set.of("folder"));
    if (!(source.options().get("folder") instanceof String folder) || folder.isBlank()) {
      throw new InvalidConfigException(key + ".options.folder", "is required for type local: the import folder");
    }
    Path path = Path.of(folder);
    if (!Files.isDirectory(path)) {
      throw new InvalidConfigException(key + ".options.folder", path.toAbsolutePath() + " is not a folder");
    }
    return path;
  }

  @Override
  public boolean usesBaseUrl() {
    return false;
  }

  @Override
  public Source create(SourceSetup setup, Path folder) {
    return new LocalImportSource(setup.name(), folder);
  }
}
