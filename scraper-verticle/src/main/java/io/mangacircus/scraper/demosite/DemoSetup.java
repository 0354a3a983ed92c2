package io.mangacircus.scraper.demosite;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.ScraperSources;
import io.mangacircus.scraper.queue.JobQueue;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What {@code --demo} adds to the scraper: the demo site on loopback as source {@code demo}, and its title queued. */
public final class DemoSetup {

  private static final Logger LOG = LoggerFactory.getLogger(DemoSetup.class);

  private DemoSetup() {
  }

  /** Starts the demo site when the configuration asks for it; null when it does not. */
  public static Future<DemoSite> start(Vertx vertx, ScraperConfig config) {
    if (!config.demo().enabled()) {
      return Future.succeededFuture();
    }
    return DemoSite.start(vertx, "127.0.0.1", config.demo().port(), new DemoCatalog(), new DemoFaults())
        .onSuccess(site -> LOG.info("demo site serving at {} (source '{}')", site.baseUrl(),
            ScraperSources.DEMO_SOURCE));
  }

  /** The configured sources with the demo source pointed at {@code site} (its pacing and validation kept if configured). */
  public static Map<String, SourceConfig> sources(ScraperConfig config, DemoSite site) {
    Map<String, SourceConfig> sources = new LinkedHashMap<>(config.sources());
    if (site != null) {
      SourceConfig configured = sources.get(ScraperSources.DEMO_SOURCE);
      sources.put(ScraperSources.DEMO_SOURCE, new SourceConfig(ScraperSources.DEMO_SOURCE, site.baseUrl(),
          configured == null ? 100 : configured.pageDelayMs(), configured == null ? 500 : configured.chapterDelayMs())
          .withValidation(configured == null ? null : configured.validation())
          // The site is served on this machine's loopback: scraper.proxy is not for it, a proxy of its own is.
          .withProxy(configured == null || configured.proxy() == null ? ScraperConfig.ProxyConfig.none()
              : configured.proxy()));
    }
    return sources;
  }

  /** Queues the demo title (auto-confirmed) unless the queue already has a job for it. */
  public static void queueTitle(JobQueue queue, ScraperConfig config) {
    String title = config.demo().title();
    boolean known = queue.jobs().stream()
        .anyMatch(j -> j.source().equals(ScraperSources.DEMO_SOURCE) && j.titleId().equals(title));
    if (!known) {
      queue.add(ScraperSources.DEMO_SOURCE, title, true);
      LOG.info("demo title '{}' added (auto-confirmed): watch it download at /api/admin/jobs", title);
    }
  }
}
