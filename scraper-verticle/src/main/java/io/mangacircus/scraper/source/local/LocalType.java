package io.mangacircus.scraper.source.local;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.LanguageCode;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import io.mangacircus.scraper.source.SourceTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Type {@code local}: titles imported from a folder on disk ({@code options.folder}), its chapters in one language
 * ({@code options.language}), docs/sources.md.
 */
public final class LocalType implements SourceType<LocalType.Options> {

  /**
   * A local source's options.
   *
   * @param folder the import folder
   * @param language the language of its chapters, lower case
   */
  public record Options(Path folder, String language) {
  }

  @Override
  public String name() {
    return "local";
  }

  /**
   * The {@code folder} option: required, an existing folder; {@code language}: optional, a language code ({@code en}
   * by default); no other option allowed.
   */
  @Override
  public Options options(String key, SourceConfig source, Path workingDir) {
    SourceTypes.knownOptions(key, source, name(), Set.of("folder", "language"));
    if (!(source.options().get("folder") instanceof String folder) || folder.isBlank()) {
      throw new InvalidConfigException(key + ".options.folder", "is required for type local: the import folder");
    }
    Path path = Path.of(folder);
    if (!Files.isDirectory(path)) {
      throw new InvalidConfigException(key + ".options.folder", path.toAbsolutePath() + " is not a folder");
    }
    Object language = source.options().getOrDefault("language", LanguageCode.DEFAULT);
    String code = language instanceof String text ? LanguageCode.of(text).orElse(null) : null;
    if (code == null) {
      throw new InvalidConfigException(key + ".options.language", "must be an ISO 639-1 code or a BCP 47 tag such as "
          + "en, fr or pt-br, got " + (language instanceof String ? "'" + language + "'" : String.valueOf(language)));
    }
    return new Options(path, code);
  }

  @Override
  public boolean usesBaseUrl() {
    return false;
  }

  @Override
  public Source create(SourceSetup setup, Options options) {
    return new LocalImportSource(setup.name(), options.folder(), options.language());
  }
}
