package io.mangacircus.scraper.source;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scraper's configured sources, resolved once (an HTML definition is loaded once) into the effective settings
 * every lane, view and pacing decision uses, and each source's one adapter, shared by its lane and the metadata
 * requests (docs/architecture.md §1).
 */
public final class SourceSet {

  private static final Logger LOG = LoggerFactory.getLogger(SourceSet.class);

  private final Map<String, ResolvedSource> resolved;
  private final Map<String, SourceConfig> configs = new LinkedHashMap<>();
  private final Map<String, Source> adapters = new LinkedHashMap<>();
  private final Map<String, Source> guarded = new LinkedHashMap<>();
  /** One HTTP client per distinct proxy (null: direct), shared by the sources that use it. */
  private final Map<SourceProxy, WebClient> clients = new LinkedHashMap<>();

  private SourceSet(Map<String, ResolvedSource> resolved) {
    this.resolved = resolved;
    resolved.forEach((name, source) -> configs.put(name, source.config()));
  }

  /** Resolves every configured source through the registry, with no default proxy. Blocking: definitions are files. */
  public static SourceSet resolve(Map<String, SourceConfig> sources) {
    return resolve(sources, null);
  }

  /**
   * Resolves every configured source through the registry; a source naming no proxy of its own takes
   * {@code defaultProxy} ({@code scraper.proxy}, null for none). Blocking: definitions and password files are files.
   */
  public static SourceSet resolve(Map<String, SourceConfig> sources, ScraperConfig.ProxyConfig defaultProxy) {
    Map<String, ResolvedSource> resolved = new LinkedHashMap<>();
    sources.forEach((name, source) -> resolved.put(name, SourceTypes.resolve(name, source, defaultProxy)));
    resolved.forEach((name, source) -> {
      if (!source.description().isEmpty()) {
        LOG.info("source {}: {}, site {}, page delay {} ms, chapter delay {} ms, series folders '{}…'",
            name, source.description(), source.config().baseUrl(), source.config().pageDelayMs(),
            source.config().chapterDelayMs(), source.seriesFolderPrefix());
      }
      if (source.proxy() != null) {
        LOG.info("source {}: requests through the proxy {}", name, source.proxy());
      }
    });
    return new SourceSet(resolved);
  }

  /** Each source's effective settings, in configuration order. */
  public Map<String, SourceConfig> configs() {
    return Collections.unmodifiableMap(configs);
  }

  /** The series-folder prefix of each source that has one (the library's folder ownership). */
  public Map<String, String> seriesFolderPrefixes() {
    return Sources.seriesFolderPrefixes(new ArrayList<>(resolved.values()));
  }

  /**
   * Builds each source's adapter once, on the HTTP client of its proxy (one per distinct proxy, one for the sources
   * without); adapters of one site share its request line (e.g. MangaDex's limits per API root) through this
   * process's lines. Metadata requests go through the source's circuit.
   */
  public void startAdapters(Vertx vertx, InstantSource clock, ScraperConfig config,
      Function<String, CircuitBreaker> circuits) {
    RequestLines lines = new RequestLines(clock);
    resolved.forEach((name, source) -> adapters.put(name, source.create(vertx,
        clients.computeIfAbsent(source.proxy(), proxy -> Sources.client(vertx, proxy)), clock, config, lines)));
    adapters.forEach((name, adapter) -> guarded.put(name, new CircuitGuardedSource(adapter, circuits.apply(name),
        vertx, config.failures())));
  }

  /** The source's one adapter (its lane wraps it in the circuit itself), or null before {@link #startAdapters}. */
  public Source adapter(String name) {
    return adapters.get(name);
  }

  /** Every source's one adapter, by name. */
  public Map<String, Source> adapters() {
    return Collections.unmodifiableMap(adapters);
  }

  /** The source for metadata requests (behind its circuit), or null before {@link #startAdapters}. */
  public Source metadata(String name) {
    return guarded.get(name);
  }

  /** Every source for metadata requests, by name. */
  public Map<String, Source> metadata() {
    return Collections.unmodifiableMap(guarded);
  }

  public void close() {
    clients.values().forEach(WebClient::close);
  }
}
