package io.mangacircus.scraper.source;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.html.HtmlDefinition;
import io.mangacircus.scraper.source.html.HtmlDefinitions;
import io.mangacircus.scraper.source.html.InvalidDefinitionException;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Builds source adapters from configuration. */
public final class Sources {

  /** The adapter types this version knows. */
  public static final Set<String> TYPES = Set.of("demo", "html", "local", "mangadex");

  /** The keys of {@code options} a source of type {@code html} accepts. */
  public static final Set<String> HTML_OPTIONS = Set.of("definition");

  /** The User-Agent every source request carries: honest, never spoofed. */
  public static final String USER_AGENT = "MangaCircus/0.1 (self-hosted manga reader)";

  private Sources() {
  }

  /** An HTTP client for one lane or one recovery pass. */
  public static WebClient client(Vertx vertx) {
    return WebClient.create(vertx, new WebClientOptions().setUserAgent(USER_AGENT)
        .setConnectTimeout(10_000).setFollowRedirects(true));
  }

  /**
   * Prepares a configured source: for type {@code html}, loads and checks its definition (a relative path starts
   * at the working directory) and merges its defaults. Reads a file: call it off the event loop.
   *
   * @throws InvalidConfigException naming {@code scraper.sources.<name>...}, and for a definition its file and key
   */
  public static ResolvedSource resolve(String name, SourceConfig source, ScraperConfig config) {
    return resolve(name, source, config, Path.of("").toAbsolutePath());
  }

  /** As above with relative definition paths resolved against {@code workingDir}. */
  public static ResolvedSource resolve(String name, SourceConfig source, ScraperConfig config, Path workingDir) {
    String key = "scraper.sources." + name;
    if (!"html".equals(source.type())) {
      return new ResolvedSource(name, source, "", null, config);
    }
    for (String option : source.options().keySet()) {
      if (!HTML_OPTIONS.contains(option)) {
        throw new InvalidConfigException(key + ".options." + option, "is not a known key for type html (known: "
            + String.join(", ", HTML_OPTIONS) + ")");
      }
    }
    Object reference = source.options().get("definition");
    if (!(reference instanceof String file) || file.isBlank()) {
      throw new InvalidConfigException(key + ".options.definition", "is required for type html: the definition "
          + "file, e.g. conf/sources/mangapill.json or classpath:/sources/mangapill.json");
    }
    HtmlDefinition definition;
    try {
      definition = HtmlDefinitions.load(file, workingDir);
    } catch (InvalidDefinitionException e) {
      throw new InvalidConfigException(key + ".options.definition", e.getMessage());
    }
    return new ResolvedSource(name, effective(source, definition), definition.seriesFolderPrefix(), definition,
        config);
  }

  /**
   * A source's settings with its definition's defaults: the definition's base URL unless the source sets one, its
   * pacing for the delays the source leaves out, and its challenge markers added to the source's.
   */
  static SourceConfig effective(SourceConfig source, HtmlDefinition definition) {
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

  /**
   * The adapter for a configured source that needs no definition file (type {@code demo}). Type {@code html} is
   * built with {@link #resolve} and {@link ResolvedSource#create}, which read the definition once.
   */
  public static Source create(String name, SourceConfig source, ScraperConfig config, WebClient client) {
    if ("html".equals(source.type())) {
      throw new IllegalArgumentException("source " + name + ": type html is built with Sources.resolve(...)"
          + ".create(vertx, client)");
    }
    return new ResolvedSource(name, source, "", null, config).create(null, client);
  }

  /** The series-folder prefixes of resolved sources, by source name (sources without one left out). */
  public static java.util.Map<String, String> seriesFolderPrefixes(List<ResolvedSource> sources) {
    java.util.Map<String, String> prefixes = new java.util.LinkedHashMap<>();
    sources.stream().filter(s -> !s.seriesFolderPrefix().isEmpty())
        .forEach(s -> prefixes.put(s.name(), s.seriesFolderPrefix()));
    return prefixes;
  }

  /** The base URL a type uses when a source leaves {@code baseUrl} empty; empty when the type needs one. */
  public static java.util.Optional<String> defaultBaseUrl(String type) {
    return "mangadex".equals(type) ? java.util.Optional.of(io.mangacircus.scraper.source.mangadex.MangaDexSource
        .DEFAULT_BASE_URL) : java.util.Optional.empty();
  }

  /**
   * Checks a source's adapter-specific settings (its {@code options}) for type {@code mangadex}.
   *
   * @param key the source's key, e.g. {@code scraper.sources.mangadex}
   * @throws InvalidConfigException naming the bad option's full key
   */
  public static void validate(String key, SourceConfig source) {
    if ("mangadex".equals(source.type())) {
      io.mangacircus.scraper.source.mangadex.MangaDexOptions.of(key + ".options", source.options());
    }
  }

  /**
   * Checks a source's adapter options before anything starts (type {@code local}; {@code html} is checked by
   * {@link #resolve}).
   *
   * @throws IllegalArgumentException naming the source and the option that is wrong
   */
  public static void checkOptions(String name, SourceConfig source) {
    if ("local".equals(source.type())) {
      localFolder(name, source);
    }
  }

  /** The {@code folder} option of a {@code local} source: required, an existing folder; no other option allowed. */
  static java.nio.file.Path localFolder(String name, SourceConfig source) {
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
