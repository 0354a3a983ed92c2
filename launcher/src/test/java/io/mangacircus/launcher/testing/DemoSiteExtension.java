package io.mangacircus.launcher.testing;

import io.mangacircus.scraper.demosite.DemoCatalog;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.DemoSite;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A demo site in the test's JVM (pages slowed by the given delay): started before each test and closed after, or, when
 * registered on a static field, started once before the class's tests and closed after the last.
 */
public final class DemoSiteExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
    AfterEachCallback {

  // The demo's pages are the same bytes in every catalog (DemoCatalogTest): one catalog for the test JVM renders each
  // page once (tens of milliseconds of CPU each), not once for every test class that downloads it.
  private static final DemoCatalog SHARED = new DemoCatalog();

  private final Duration pageDelay;
  private final DemoCatalog catalog = SHARED;
  private final DemoFaults faults = new DemoFaults();
  private Vertx vertx;
  private DemoSite site;
  /** Set when the site lives for the whole class, so the per-test callbacks leave it running. */
  private boolean sharedByClass;

  /** @param pageDelay how long each page image takes to answer */
  public DemoSiteExtension(Duration pageDelay) {
    this.pageDelay = pageDelay;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    sharedByClass = true;
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    close();
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (!sharedByClass) {
      start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (!sharedByClass) {
      close();
    }
  }

  private void start() throws Exception {
    vertx = Vertx.vertx();
    faults.slowPages(pageDelay);
    site = DemoSite.start(vertx, "127.0.0.1", 0, catalog, faults).toCompletionStage().toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  private void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  public DemoSite site() {
    return site;
  }

  public DemoCatalog catalog() {
    return catalog;
  }

  /** The catalog every demo site of this test JVM serves, its pages rendered once. */
  public static DemoCatalog sharedCatalog() {
    return SHARED;
  }

  public DemoFaults faults() {
    return faults;
  }

  /** A {@code scraper} config section with the source {@code demo} reading this site, polling claims quickly. */
  public JsonObject scraperConfig() {
    return new JsonObject().put("claimPollMs", 100)
        .put("sources", new JsonObject().put("demo", new JsonObject().put("type", "demo")
            .put("baseUrl", site.baseUrl()).put("pageDelayMs", 10).put("chapterDelayMs", 20)));
  }
}
