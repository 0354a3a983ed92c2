package io.mangacircus.scraper.source;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.validate.PageValidator;
import io.mangacircus.scraper.ScraperConfig.ProxyConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.demo.DemoType;
import io.mangacircus.scraper.source.html.HtmlType;
import io.mangacircus.scraper.source.local.LocalType;
import io.mangacircus.scraper.source.mangadex.MangaDexType;
import io.mangacircus.scraper.source.suwayomi.SuwayomiType;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The one registry of source types: the only place that names them. A configured source's {@code type} is looked up
 * here, its options read and checked by its type, and its adapter built by its type's factory.
 */
public final class SourceTypes {

  private static final Map<String, SourceType<?>> TYPES = register(
      new DemoType(),
      new HtmlType(),
      new LocalType(),
      new MangaDexType(),
      new SuwayomiType());

  private SourceTypes() {
  }

  private static Map<String, SourceType<?>> register(SourceType<?>... types) {
    Map<String, SourceType<?>> byName = new TreeMap<>();
    for (SourceType<?> type : types) {
      if (byName.put(type.name(), type) != null) {
        throw new IllegalStateException("two source types are named " + type.name());
      }
    }
    return Collections.unmodifiableMap(byName);
  }

  /** The names of the types this version knows, sorted. */
  public static Set<String> names() {
    return TYPES.keySet();
  }

  /**
   * The type a source names.
   *
   * @param key the source's key, e.g. {@code scraper.sources.shelf}
   * @throws InvalidConfigException naming {@code <key>.type} and listing the known types
   */
  public static SourceType<?> type(String key, String name) {
    SourceType<?> type = name == null ? null : TYPES.get(name);
    if (type == null) {
      throw new InvalidConfigException(key + ".type", "'" + name + "' is not a source type (known: "
          + String.join(", ", TYPES.keySet()) + ")");
    }
    return type;
  }

  /** The title page address of a type ({@link SourceType#titlePage}); empty for a name that is no type. */
  public static java.util.Optional<String> titlePage(String name) {
    SourceType<?> type = name == null ? null : TYPES.get(name);
    return type == null ? java.util.Optional.empty() : type.titlePage();
  }

  /**
   * Prepares a configured source: its type reads and checks its options (an HTML definition is loaded; a relative
   * path starts at the working directory) and merges its defaults. May read files: call it off the event loop.
   *
   * @throws InvalidConfigException naming {@code scraper.sources.<name>...}, and for a definition its file and key
   */
  public static ResolvedSource resolve(String name, SourceConfig source) {
    return resolve(name, source, (ProxyConfig) null);
  }

  /**
   * As above; the source's proxy is its own, else {@code defaultProxy} ({@code scraper.proxy}, null for none), its
   * password read from the environment or its file now.
   */
  public static ResolvedSource resolve(String name, SourceConfig source, ProxyConfig defaultProxy) {
    return resolve(name, source, defaultProxy, System::getenv, Path.of("").toAbsolutePath());
  }

  /** As above with relative paths in options resolved against {@code workingDir}. */
  public static ResolvedSource resolve(String name, SourceConfig source, Path workingDir) {
    return resolve(name, source, null, System::getenv, workingDir);
  }

  /** As above with the environment given. */
  public static ResolvedSource resolve(String name, SourceConfig source, ProxyConfig defaultProxy,
      Function<String, String> environment, Path workingDir) {
    String key = "scraper.sources." + name;
    SourceProxy proxy = SourceProxy.of(key, source.proxy(), defaultProxy, environment, workingDir);
    return resolve(type(key, source.type()), name, key, source, workingDir, proxy);
  }

  private static <O> ResolvedSource resolve(SourceType<O> type, String name, String key, SourceConfig source,
      Path workingDir, SourceProxy proxy) {
    O options = type.options(key, source, workingDir);
    return new ResolvedSource(name, effective(type, key, source, options), type.seriesFolderPrefix(options),
        type.describe(options), setup -> type.create(setup, options), proxy);
  }

  /**
   * Checks a source before anything starts: its type, its options, and its base URL (an http(s) URL unless its type
   * needs none, supplies a default, or {@code servedHere} says the process serves the site itself).
   *
   * @return the source's effective settings
   * @throws InvalidConfigException naming the key that is wrong
   */
  public static SourceConfig check(String name, SourceConfig source, boolean servedHere, Path workingDir) {
    String key = "scraper.sources." + name;
    return check(type(key, source.type()), key, source, servedHere, workingDir);
  }

  private static <O> SourceConfig check(SourceType<O> type, String key, SourceConfig source, boolean servedHere,
      Path workingDir) {
    O options = type.options(key, source, workingDir);
    SourceConfig effective = effective(type, key, source, options);
    boolean noUrl = servedHere || !type.usesBaseUrl()
        || (effective.baseUrl().isEmpty() && type.defaultBaseUrl(options).isPresent());
    if (!noUrl && !effective.baseUrl().matches("https?://[^\\s/]+(/.*)?")) {
      throw new InvalidConfigException(key + ".baseUrl", "must be an http(s) URL" + type.defaultBaseUrl(options)
          .map(url -> " (or left out to use " + url + ")").orElse(""));
    }
    return effective;
  }

  /** The type's effective settings with the source's page validation, which no type changes; checked here. */
  private static <O> SourceConfig effective(SourceType<O> type, String key, SourceConfig source, O options) {
    if (PageValidator.Mode.of(source.validation()).isEmpty()) {
      throw new InvalidConfigException(key + ".validation", "must be \"structure\" (the default: each page's format "
          + "walked to its end, no decode) or \"decode\" (a full decode of every page as well), got \""
          + source.validation() + "\"");
    }
    return type.effective(source, options).withValidation(source.validation()).withProxy(source.proxy());
  }

  /**
   * Refuses option keys a type does not know.
   *
   * @throws InvalidConfigException naming {@code <key>.options.<option>} and listing the known keys
   */
  public static void knownOptions(String key, SourceConfig source, String type, Set<String> known) {
    for (String option : source.options().keySet()) {
      if (!known.contains(option)) {
        throw new InvalidConfigException(key + ".options." + option, "is not a known key for type " + type
            + " (known: " + String.join(", ", new java.util.TreeSet<>(known)) + ")");
      }
    }
  }
}
