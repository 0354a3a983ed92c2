package io.mangacircus.scraper.source.html;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import io.mangacircus.scraper.source.SourceTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/** Type {@code html}: a website read through a definition file ({@code options.definition}, docs/sources.md). */
public final class HtmlType implements SourceType<HtmlType.Options> {

  /** The keys of {@code options} a source of this type accepts. */
  public static final Set<String> KEYS = Set.of("definition");

  /**
   * @param file the definition file as configured
   * @param definition the loaded, checked definition
   */
  public record Options(String file, HtmlDefinition definition) {
  }

  @Override
  public String name() {
    return "html";
  }

  @Override
  public Options options(String key, SourceConfig source, Path workingDir) {
    SourceTypes.knownOptions(key, source, name(), KEYS);
    Object reference = source.options().get("definition");
    if (!(reference instanceof String file) || file.isBlank()) {
      throw new InvalidConfigException(key + ".options.definition", "is required for type html: the definition "
          + "file, e.g. conf/sources/mangapill.json or classpath:/sources/mangapill.json");
    }
    try {
      return new Options(file, HtmlDefinitions.load(file, workingDir));
    } catch (InvalidDefinitionException e) {
      throw new InvalidConfigException(key + ".options.definition", e.getMessage());
    }
  }

  @Override
  public Optional<String> defaultBaseUrl(Options options) {
    return Optional.of(options.definition().baseUrl());
  }

  /**
   * The definition's defaults: its base URL unless the source sets one, its pacing for the delays the source leaves
   * out, and its challenge markers added to the source's.
   */
  @Override
  public SourceConfig effective(SourceConfig source, Options options) {
    HtmlDefinition definition = options.definition();
    Set<String> defaulted = new HashSet<>(source.defaulted());
    long pageDelayMs = source.pageDelayMs();
    if (defaulted.contains("pageDelayMs") && definition.pacing().pageDelayMs() != null) {
      pageDelayMs = definition.pacing().pageDelayMs();
      defaulted.remove("pageDelayMs");
    }
    long chapterDelayMs = source.chapterDelayMs();
    if (defaulted.contains("chapterDelayMs") && definition.pacing().chapterDelayMs() != null) {
      chapterDelayMs = definition.pacing().chapterDelayMs();
      defaulted.remove("chapterDelayMs");
    }
    Set<String> markers = new LinkedHashSet<>(source.challengeMarkers());
    markers.addAll(definition.challengeMarkers());
    String baseUrl = source.baseUrl().isBlank() ? definition.baseUrl() : source.baseUrl();
    return new SourceConfig(source.type(), baseUrl, pageDelayMs, chapterDelayMs, new ArrayList<>(markers),
        source.options(), defaulted);
  }

  @Override
  public String seriesFolderPrefix(Options options) {
    return options.definition().seriesFolderPrefix();
  }

  @Override
  public String describe(Options options) {
    return "definition '" + options.definition().name() + "' (" + options.file() + ")";
  }

  @Override
  public Source create(SourceSetup setup, Options options) {
    return new HtmlSource(setup.name(), options.definition(), setup.config().baseUrl(), setup.config().pageDelayMs(),
        setup.vertx(), setup.http(), setup.metadataTimeoutMs(), setup.pageTimeoutMs(), HtmlSource.MAX_HTML_BYTES);
  }
}
