package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.Nightly;
import io.mangacircus.scraper.demosite.DemoCatalog;
import io.mangacircus.scraper.demosite.DemoChapter;
import io.mangacircus.scraper.demosite.DemoSeries;
import io.mangacircus.scraper.demosite.DemoSite;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scraper in its own JVM, downloading from a demo site in this JVM, killed with SIGKILL after a random small
 * amount of progress (1 or 2 more page requests seen by the site, so the schedule does not depend on machine speed)
 * and halted at exact crash points (mid page write, mid publication), restarted each time. Nothing may be lost,
 * published twice or downloaded twice.
 */
@Tag("process")
class CrashRecoveryIT {

  private static final String TOKEN = "crash-test-admin-token-0";
  private static final List<String> TITLES = List.of("circus-nights", "tightrope-walker", "lion-tamer");
  private static final List<String> CRASH_POINTS = List.of("page.part-written:3", "page.renamed:2",
      "publish.before-rename:1", "publish.renamed:1", "checkpoint.line-torn:4", "page.renamed:7", "publish.renamed:2");
  // A handful of SIGKILLs by default, twenty in the nightly run; every crash point either way.
  private static final int RANDOM_KILLS = Nightly.pick(5, 20);

  @TempDir
  Path work;

  // Paced pages (about 150 pages at ~0.07 s each): a kill, decided by progress polled every 20 ms, lands within a page
  // or two of that progress, so the runs interrupt the download many times before its end.
  @RegisterExtension
  final DemoSiteExtension demo = new DemoSiteExtension(Duration.ofMillis(60));

  @Test
  // About 13 JVM starts (28 in the nightly run), each waiting for real progress: minutes on a loaded machine.
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void killedAtRandomAndAtEveryCrashPointTheDownloadEndsWithEveryChapterPublishedOnceAndNoPageFetchedTwice()
      throws Exception {
    Path conf = work.resolve("crash.json");
    Files.writeString(conf, new JsonObject().put("scraper", demo.scraperConfig()
        .put("recovery", new JsonObject().put("maxPerPass", 50).put("delayMs", 0))).encode());
    DemoSite site = demo.site();
    Path data = work.resolve("data");
    Random random = new Random(20261129L);
    int port = FreePorts.next();
    List<String> args = List.of("all", "--conf=" + conf, "--data=" + data, "--port=" + port,
        "--health-port=" + FreePorts.next());

    long started = System.nanoTime();
    int randomKills = 0;
    int crashHalts = 0;
    int run = 0;
    boolean titlesAdded = false;
    // Each run is interrupted after a bounded amount of progress, never after a span of time: 20 kills after at
    // most 2 more pages each plus the crash points use well under the 154 pages of the three titles. Every fourth
    // run halts at the next crash point; once the random kills are done, every run does.
    while ((randomKills < RANDOM_KILLS || crashHalts < CRASH_POINTS.size()) && !allDone(data)) {
      run++;
      boolean crashRun = crashHalts < CRASH_POINTS.size() && (run % 4 == 3 || randomKills >= RANDOM_KILLS);
      List<String> jvm = crashRun ? List.of("-Dmangacircus.crashAt=" + CRASH_POINTS.get(crashHalts)) : List.of();
      long requestsAtStart = site.imageRequests();
      try (JarProcess process = JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN), jvm,
          args.toArray(String[]::new))) {
        if (!titlesAdded) {
          HttpProbe.awaitReady(port);
          AdminApi admin = new AdminApi(port, TOKEN);
          for (String title : TITLES) {
            HttpProbe.Answer added = admin.post("/api/admin/jobs",
                new JsonObject().put("source", "demo").put("title", title).put("autoConfirm", true));
            assertThat(added.status()).as(added.body()).isEqualTo(201);
          }
          titlesAdded = true;
        }
        if (crashRun) {
          // The process halts itself at the crash point (it gets there by progress, however fast the machine).
          await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50))
              .until(() -> !process.isAlive() || allDone(data));
          assertThat(process.isAlive()).as("the download ended before crash point %s", CRASH_POINTS.get(crashHalts))
              .isFalse();
          assertThat(process.exitCode()).as(process.output()).isEqualTo(137);
          assertThat(process.output()).contains("[CRASHPOINT]");
          crashHalts++;
        } else {
          long progress = 1 + random.nextInt(2);
          await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(20))
              .until(() -> !process.isAlive() || site.imageRequests() >= requestsAtStart + progress);
          assertThat(process.isAlive()).as("the process died on its own:\n" + process.output()).isTrue();
          process.kill();
          randomKills++;
        }
      }
      assertQueueParses(data);
    }

    assertThat(randomKills).as("SIGKILLs before the download finished").isGreaterThanOrEqualTo(RANDOM_KILLS);
    assertThat(crashHalts).as("crash-point halts before the download finished").isEqualTo(CRASH_POINTS.size());

    try (JarProcess last = JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN), List.of(),
        args.toArray(String[]::new))) {
      AdminApi admin = new AdminApi(port, TOKEN);
      await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
        HttpProbe.Answer jobs = admin.get("/api/admin/jobs");
        return jobs.status() == 200 && jobs.json().getJsonArray("jobs").stream().map(JsonObject.class::cast)
            .filter(j -> j.getString("state").equals("done")).count() == TITLES.size();
      });
      JsonArray jobs = admin.get("/api/admin/jobs").json().getJsonArray("jobs");
      for (Object entry : jobs) {
        JsonObject job = (JsonObject) entry;
        assertThat(job.getInteger("attempts")).as("interruptions never consume attempts").isZero();
        assertThat(job.getLong("chaptersFailed")).isZero();
        assertThat(job.getLong("chaptersPublished")).isEqualTo(job.getInteger("chapters").longValue());
      }
      last.terminate();
      assertThat(last.waitForExit(Duration.ofSeconds(30))).as(last.output()).isZero();
    }

    assertLibraryHoldsEveryChapterOnceWithTheSitesExactPages(data);
    assertEachChapterWasJournaledPublishedOnce(data);
    assertNoValidatedPageWasFetchedTwice(randomKills + crashHalts);
    System.out.printf("[measure] crash test: %d runs, %d SIGKILLs, %d crash-point halts, %d image requests for %d "
        + "pages, %d s%n", run, randomKills, crashHalts, site.imageRequests(), totalPages(),
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void killedWithATornLastLineInTheCheckpointLogTheRestartFetchesOnlyThatPageAgainAndPublishesExactPages()
      throws Exception {
    String title = "tightrope-walker";
    Path conf = work.resolve("torn.json");
    Files.writeString(conf, new JsonObject().put("scraper", demo.scraperConfig()).encode());
    Path data = work.resolve("data");
    int port = FreePorts.next();
    List<String> args = List.of("all", "--conf=" + conf, "--data=" + data, "--port=" + port,
        "--health-port=" + FreePorts.next());
    DemoSeries series = demo.catalog().series(title).orElseThrow();
    DemoChapter first = series.chapters().get(0);
    String ext = series.imageFormat();

    // The fifth page's checkpoint line is half written and forced, then the process halts.
    try (JarProcess process = JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN),
        List.of("-Dmangacircus.crashAt=checkpoint.line-torn:5"), args.toArray(String[]::new))) {
      HttpProbe.awaitReady(port);
      HttpProbe.Answer added = new AdminApi(port, TOKEN).post("/api/admin/jobs",
          new JsonObject().put("source", "demo").put("title", title).put("autoConfirm", true));
      assertThat(added.status()).as(added.body()).isEqualTo(201);
      await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50)).until(() -> !process.isAlive());
      assertThat(process.exitCode()).as(process.output()).isEqualTo(137);
      assertThat(process.output()).contains("[CRASHPOINT] halting at checkpoint.line-torn");
    }
    Path staging;
    try (Stream<Path> entries = Files.list(data.resolve("library"))) {
      staging = entries.filter(p -> p.getFileName().toString().startsWith(".staging-mcscraper-resume-")).findFirst()
          .orElseThrow();
    }
    String log = Files.readString(staging.resolve("checkpoint.log"));
    assertThat(log).as("the log ends with a torn line").doesNotEndWith("\n");
    List<String> lines = log.lines().toList();
    assertThat(lines).hasSize(5);
    for (int page = 1; page <= 4; page++) {
      assertThat(new JsonObject(lines.get(page - 1)).getInteger("index")).isEqualTo(page);
    }
    assertThat(lines.get(4)).startsWith("{\"index\":5");
    assertThat(staging.resolve(String.format(Locale.ROOT, "005.%s", ext))).as("its page file was renamed in").exists();

    try (JarProcess again = JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN), List.of(),
        args.toArray(String[]::new))) {
      await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
        // Through the store: queue.json is the snapshot, the changes since are in its journal.
        Path queue = data.resolve("scraper/queue.json");
        return Files.exists(queue) && new io.mangacircus.scraper.queue.QueueStore(queue).read().jobs().stream()
            .allMatch(j -> j.state() == io.mangacircus.scraper.queue.JobState.DONE);
      });
      again.terminate();
      assertThat(again.waitForExit(Duration.ofSeconds(30))).as(again.output()).isZero();
    }

    DemoSite site = demo.site();
    Path seriesFolder = data.resolve("library").resolve(series.title().toLowerCase(Locale.ROOT)
        .replaceAll("[^a-z0-9]+", "-"));
    for (DemoChapter chapter : series.chapters().stream().filter(c -> c.language().equals("en")).toList()) {
      Path folder = seriesFolder.resolve(String.format(Locale.ROOT, "chapter-%04d", Integer.parseInt(chapter.number())));
      assertThat(folder.resolve("checkpoint.log")).doesNotExist();
      assertThat(folder.resolve("checkpoint.json")).doesNotExist();
      for (int page = 1; page <= chapter.pages(); page++) {
        String name = String.format(Locale.ROOT, "%03d.%s", page, ext);
        assertThat(folder.resolve(name)).hasBinaryContent(demo.catalog().pageImage(title, chapter.id(), page));
        long expected = chapter == first && page == 5 ? 2 : 1;
        assertThat(site.requests(String.format(Locale.ROOT, "/img/%s/%s/%s", title, chapter.id(), name)))
            .as("requests of %s page %d: only the page whose line was torn is fetched again", chapter.id(), page)
            .isEqualTo(expected);
      }
    }
    try (Stream<Path> entries = Files.list(data.resolve("library"))) {
      assertThat(entries.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".staging"));
    }
  }

  private static void assertQueueParses(Path data) throws Exception {
    Path queue = data.resolve("scraper/queue.json");
    if (Files.exists(queue)) {
      JsonObject parsed = new JsonObject(Files.readString(queue));
      assertThat(parsed.getInteger("schema")).isEqualTo(io.mangacircus.scraper.queue.QueueStore.SCHEMA);
      // and its journal: every line but a torn last one parses and follows the snapshot
      new io.mangacircus.scraper.queue.QueueStore(queue).read();
    }
  }

  private static boolean allDone(Path data) throws Exception {
    Path queue = data.resolve("scraper/queue.json");
    if (!Files.exists(queue)) {
      return false;
    }
    List<io.mangacircus.scraper.queue.Job> jobs = new io.mangacircus.scraper.queue.QueueStore(queue).read().jobs();
    return jobs.size() == TITLES.size()
        && jobs.stream().allMatch(j -> j.state() == io.mangacircus.scraper.queue.JobState.DONE);
  }

  private int totalPages() {
    DemoCatalog catalog = demo.catalog();
    return TITLES.stream().map(t -> catalog.series(t).orElseThrow()).flatMap(s -> s.chapters().stream())
        .filter(c -> c.language().equals("en")).mapToInt(DemoChapter::pages).sum();
  }

  private void assertLibraryHoldsEveryChapterOnceWithTheSitesExactPages(Path data) throws Exception {
    DemoCatalog catalog = demo.catalog();
    Path library = data.resolve("library");
    try (Stream<Path> entries = Files.list(library)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .as("no staging folder is left behind").noneMatch(n -> n.startsWith(".staging"));
    }
    for (String title : TITLES) {
      DemoSeries series = catalog.series(title).orElseThrow();
      Path seriesFolder = library.resolve(series.title().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-"));
      List<DemoChapter> english = series.chapters().stream().filter(c -> c.language().equals("en")).toList();
      try (Stream<Path> chapters = Files.list(seriesFolder)) {
        assertThat(chapters.filter(Files::isDirectory).count()).isEqualTo(english.size());
      }
      for (DemoChapter chapter : english) {
        Path folder = seriesFolder.resolve(String.format(Locale.ROOT, "chapter-%04d", Integer.parseInt(chapter.number())));
        String ext = series.imageFormat();
        try (Stream<Path> files = Files.list(folder)) {
          assertThat(files.filter(f -> f.getFileName().toString().endsWith("." + ext)).count())
              .isEqualTo(chapter.pages());
        }
        assertThat(new JsonObject(Files.readString(folder.resolve("chapter.json"))).getJsonArray("pages"))
            .hasSize(chapter.pages());
        for (int page = 1; page <= chapter.pages(); page++) {
          byte[] bytes = Files.readAllBytes(folder.resolve(String.format(Locale.ROOT, "%03d.%s", page, ext)));
          assertThat(bytes).isEqualTo(catalog.pageImage(title, chapter.id(), page));
          BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
          assertThat(image).as("page %d of %s %s decodes", page, title, chapter.id()).isNotNull();
        }
      }
    }
  }

  private static void assertEachChapterWasJournaledPublishedOnce(Path data) throws Exception {
    List<String> published = new ArrayList<>();
    for (String line : Files.readAllLines(data.resolve("scraper/events.log"))) {
      JsonObject event = new JsonObject(line);
      if ("chapter.stage".equals(event.getString("type")) && "published".equals(event.getString("to"))) {
        published.add(event.getString("titleId") + "/" + event.getString("chapterId"));
      }
    }
    assertThat(published).doesNotHaveDuplicates().hasSize(9);
  }

  private void assertNoValidatedPageWasFetchedTwice(int interruptions) {
    DemoCatalog catalog = demo.catalog();
    DemoSite site = demo.site();
    long extra = 0;
    for (String title : TITLES) {
      DemoSeries series = catalog.series(title).orElseThrow();
      for (DemoChapter chapter : series.chapters().stream().filter(c -> c.language().equals("en")).toList()) {
        for (int page = 1; page <= chapter.pages(); page++) {
          String path = String.format(Locale.ROOT, "/img/%s/%s/%03d.%s", title, chapter.id(), page,
              series.imageFormat());
          long requests = site.requests(path);
          assertThat(requests).as(path).isPositive();
          extra += requests - 1;
        }
      }
    }
    // Only the page in flight when a process died may be fetched again: at most one per interruption.
    assertThat(extra).isLessThanOrEqualTo(interruptions);
  }
}
