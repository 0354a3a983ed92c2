package io.mangacircus.scraper.source;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One kind of source (the {@code type} of a configured source): its name, its typed {@code options} with their
 * validation, its default base URL and the factory of its adapter. Every type is listed once, in {@link SourceTypes};
 * docs/sources.md ("Adding a source type") says how to add one.
 *
 * @param <O> the type's options, read and checked from the source's {@code options}
 */
public interface SourceType<O> {

  /** The name a source's {@code type} gives, e.g. {@code mangadex}. */
  String name();

  /**
   * Reads and checks a source's {@code options} (may read files, e.g. an HTML definition: call it off the event loop).
   *
   * @param key the source's key, e.g. {@code scraper.sources.shelf}
   * @param workingDir where relative paths in the options start
   * @throws io.mangacircus.contracts.InvalidConfigException naming the bad option's full key
   */
  O options(String key, SourceConfig source, Path workingDir);

  /** The base URL used when a source leaves {@code baseUrl} empty; empty when the source must name one. */
  default Optional<String> defaultBaseUrl(O options) {
    return Optional.empty();
  }

  /** Whether the source talks to a site at {@code baseUrl} at all (a local folder does not). */
  default boolean usesBaseUrl() {
    return true;
  }

  /** The source's settings with the type's own defaults (e.g. an HTML definition's pacing) merged in. */
  default SourceConfig effective(SourceConfig source, O options) {
    return source;
  }

  /**
   * The address of a title's page on the source's site, {@code {titleId}} standing for the title id (the scraper's
   * sources reply carries it, so that the reader links a series to its source); empty when titles have no page there
   * by their id.
   */
  default Optional<String> titlePage() {
    return Optional.empty();
  }

  /** Put before the series folder names of the source's chapters in the library; empty for none. */
  default String seriesFolderPrefix(O options) {
    return "";
  }

  /** One line for the start-up log about what the options chose; empty when there is nothing to say. */
  default String describe(O options) {
    return "";
  }

  /** The adapter of one configured source; built once per source and shared by its lane and metadata requests. */
  Source create(SourceSetup setup, O options);
}
