package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.JobsListRequest;
import io.mangacircus.contracts.scraper.JobView;
import io.mangacircus.contracts.scraper.JobsReply;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperVerticle;
import io.mangacircus.scraper.demosite.DemoCatalog;
import io.mangacircus.scraper.demosite.DemoChapter;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.SharedDemoCatalog;
import io.mangacircus.scraper.demosite.DemoSite;
import io.mangacircus.testing.powercut.PowerCutFileSystem;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A download on a filesystem that loses what was never fsynced (test-fixtures' {@link PowerCutFileSystem}, the weakest
 * POSIX crash model): at every fsync of the queue journal and of a checkpoint log, what a power cut would leave holds
 * each chapter the queue calls published, complete and byte-identical to the source, and every page a checkpoint log
 * acknowledged ({@link CutChecks}); cuts at random sync points, restarted, finish the title byte-identical and fetch
 * again only the pages that were not acknowledged when the power went (docs/resilience.md, "Durability").
 */
@ExtendWith(VertxExtension.class)
class PowerCutIT {

  private static final String SOURCE = "demo";
  private static final String TITLE = "tightrope-walker";
  private static final int RANDOM_CUTS = 3;

  @TempDir
  Path mount;

  @TempDir
  Path scratch;

  // One catalog for the class: its pages are rendered once, not for every test (the same bytes either way).
  private static final DemoCatalog CATALOG = SharedDemoCatalog.CATALOG;
  private final DemoCatalog catalog = CATALOG;
  private DemoSite site;
  private PowerCutFileSystem fs;

  @BeforeEach
  void startSite(Vertx vertx) throws Exception {
    site = get(DemoSite.start(vertx, "127.0.0.1", 0, catalog, new DemoFaults()));
  }

  @AfterEach
  void closeFileSystem() {
    if (fs != null) {
      fs.close();
    }
  }

  @Test
  void aChapterTheQueueCallsPublishedIsInEveryCutWhenTheLibraryFolderIsNew(Vertx vertx) throws Exception {
    // An install that ran before (its data and scraper folders are on the disk) downloads its first chapters: the
    // library folder is created by this download.
    Files.createDirectories(mount.resolve("data").resolve("scraper"));

    CutChecks checks = download(vertx, 0, 0);

    assertThat(checks.problems()).as(checks.summary()).isEmpty();
    assertThat(checks.publishedSeen()).as("cuts taken after a chapter was recorded as published").isPositive();
  }

  @Test
  void everyAcknowledgedPageIsInEveryCutAndRandomCutsRestartedFinishTheTitle(Vertx vertx) throws Exception {
    Files.createDirectories(mount.resolve("data").resolve("scraper"));
    Files.createDirectories(mount.resolve("data").resolve("library"));
    long seed = Long.getLong("mangacircus.powercut.seed", System.nanoTime());
    System.out.println("[POWERCUT] random cuts drawn with -Dmangacircus.powercut.seed=" + seed);

    CutChecks checks = download(vertx, seed, RANDOM_CUTS);

    assertThat(checks.problems()).as(checks.summary()).isEmpty();
    assertThat(checks.pagesSeen()).as("acknowledged pages looked for in the cuts").isPositive();
    assertThat(checks.kept()).hasSize(RANDOM_CUTS);
    int total = pagesOfTheTitle();
    for (CutChecks.KeptCut cut : checks.kept()) {
      int kept = CutChecks.pagesKept(cut.folder());
      long lost = cut.imagesServed() - kept;
      long before = site.imageRequests();
      runUntilDone(vertx, cut.folder().resolve("data"));
      long fetched = site.imageRequests() - before;
      System.out.printf("[POWERCUT] cut at sync point %d: %d pages served before it, %d kept, %d lost (fetched again)"
          + " of %d%n", cut.syncPoint(), cut.imagesServed(), kept, lost, total);
      assertThat(lost).as("pages served but not acknowledged at the cut: at most those in flight")
          .isBetween(0L, (long) ChapterPages.PAGES_IN_FLIGHT + 1);
      assertThat(fetched).as("after the restart, only the pages the cut did not keep are fetched").isEqualTo(total - kept);
      assertTitleComplete(cut.folder().resolve("data").resolve("library"));
    }
  }

  /** Downloads the title on a power-cut filesystem over {@link #mount}, checking a cut at each sync point. */
  private CutChecks download(Vertx vertx, long seed, int keep) throws Exception {
    fs = PowerCutFileSystem.over(mount);
    CutChecks checks = new CutChecks(fs, scratch, catalog, site::imageRequests, seed, keep);
    fs.onSync(checks::atSync);
    runUntilDone(vertx, fs.root().resolve("data"));
    assertTitleComplete(mount.resolve("data").resolve("library"));
    System.out.println("[POWERCUT] " + checks.summary());
    return checks;
  }

  /** Starts a scraper on {@code data}, adds the title unless its queue has it, waits until the job is done, stops. */
  private void runUntilDone(Vertx vertx, Path data) throws Exception {
    String deployment = get(vertx.deployVerticle(new ScraperVerticle(config(), data, null)));
    try {
      await().atMost(Duration.ofSeconds(20)).until(() -> job(vertx).isPresent() || add(vertx));
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
          .until(() -> job(vertx).map(JobView::state).orElse("").equals("done"));
    } finally {
      get(vertx.undeploy(deployment));
    }
  }

  private Optional<JobView> job(Vertx vertx) throws Exception {
    JobsReply reply = JobsReply.fromJson(get(vertx.eventBus().request(Addresses.SCRAPER_JOBS_LIST,
        JobsListRequest.all().toJson())).body());
    return reply.jobs().stream().filter(j -> j.source().equals(SOURCE) && j.titleId().equals(TITLE)).findFirst();
  }

  private boolean add(Vertx vertx) throws Exception {
    get(vertx.eventBus().request(Addresses.SCRAPER_JOBS_ADD, new AddTitleRequest(SOURCE, TITLE, true).toJson()));
    return true;
  }

  /** Every chapter of the title published in {@code library}, each page byte-identical to the source's. */
  private void assertTitleComplete(Path library) throws Exception {
    Map<String, CutChecks.Published> published = CutChecks.published(library);
    List<DemoChapter> chapters = catalog.series(TITLE).orElseThrow().chapters();
    assertThat(published).hasSize(chapters.size());
    for (CutChecks.Published chapter : published.values()) {
      for (var page : chapter.manifest().pages()) {
        assertThat(Files.readAllBytes(chapter.folder().resolve(page.file())))
            .as("%s page %d", chapter.folder(), page.index())
            .isEqualTo(catalog.pageImage(TITLE, chapter.manifest().chapterId(), page.index()));
      }
    }
  }

  private int pagesOfTheTitle() {
    return catalog.series(TITLE).orElseThrow().chapters().stream().mapToInt(DemoChapter::pages).sum();
  }

  private ScraperConfig config() {
    ScraperConfig.SourceConfig source = new ScraperConfig.SourceConfig("demo", site.baseUrl(), 0L, 0L);
    return new ScraperConfig(0, true, 120, 50, 60, 30, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of(SOURCE, source),
        new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
  }

  private static <T> T get(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
