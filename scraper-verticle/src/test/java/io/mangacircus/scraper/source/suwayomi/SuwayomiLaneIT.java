package io.mangacircus.scraper.source.suwayomi;

import static io.mangacircus.scraper.source.suwayomi.SuwayomiFake.LANG;
import static io.mangacircus.scraper.source.suwayomi.SuwayomiFake.MANGA;
import static io.mangacircus.scraper.source.suwayomi.SuwayomiFake.SOURCE_ID;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.discovery.DiscoveryRun;
import io.mangacircus.scraper.discovery.DiscoveryService;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.follow.Follows;
import io.mangacircus.scraper.lane.LaneVerticle;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.lane.StallWatchdog;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.testing.Polling;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real lane downloading through the Suwayomi bridge from a fake Suwayomi server (one for the class): every page
 * published byte for byte as the server served it, a server that refuses every 20th request with 429 waited out by
 * itself, a server that is down opening the lane's circuit, an uninstalled source that makes the job wait rather
 * than fail, a page answer that hangs caught by the stall watchdog, and a followed title's new chapter found by
 * discovery.
 */
@ExtendWith(VertxExtension.class)
class SuwayomiLaneIT {

  private static final String SOURCE = "bridge";
  private static final Duration LEASE = Duration.ofMinutes(5);
  /** The long title: 100 chapters of one or two small pages. */
  private static final int LONG_MANGA = 500;

  private static SuwayomiFake fake;

  @TempDir
  Path data;

  private EventLog events;
  private JobQueue queue;
  private LibraryFolders library;
  private CircuitBreaker breaker;

  @BeforeAll
  static void startFake() {
    fake = new SuwayomiFake();
  }

  @AfterAll
  static void stopFake() {
    fake.stop();
  }

  @BeforeEach
  void start() {
    fake.reset();
    events = new EventLog(data.resolve("scraper/events.log"));
    queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")), events, InstantSource.system(),
        Set.of(SOURCE), QueueListener.NONE);
    library = new LibraryFolders(data.resolve("library"));
  }

  /** Deploys one lane of the bridge source at pacing 0. */
  private Future<String> lane(Vertx vertx) {
    return lane(vertx, fake.baseUrl());
  }

  /** Deploys one lane of the bridge source at pacing 0 on the server at {@code baseUrl}; its breaker in {@link #breaker}. */
  private Future<String> lane(Vertx vertx, String baseUrl) {
    return lane(vertx, config(baseUrl, 60, 2, new ScraperConfig.Stall(30, 900, 180)));
  }

  /** The scraper's configuration with the one bridge source at pacing 0 on the server at {@code baseUrl}. */
  private static ScraperConfig config(String baseUrl, long pageTimeoutSeconds, int requestRetries,
      ScraperConfig.Stall stall) {
    SourceConfig source = new SourceConfig("suwayomi", baseUrl, 0L, 0L,
        SourceConfig.DEFAULT_CHALLENGE_MARKERS, Map.of("sourceId", SOURCE_ID));
    return new ScraperConfig(0, true, 120, 50, pageTimeoutSeconds, 30, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of(SOURCE, source),
        new ScraperConfig.Failures(300, requestRetries, 100, 3, 300, 2, 60), stall);
  }

  /** Deploys the lane of the bridge source as {@code config} says; its breaker in {@link #breaker}. */
  private Future<String> lane(Vertx vertx, ScraperConfig config) {
    breaker = CircuitGuardedSource.breaker(vertx, SOURCE, config.failures(), state -> { });
    SystemicParserWatch systemic = new SystemicParserWatch(2, Duration.ofHours(1), InstantSource.system());
    return LaneVerticle.deploy(vertx, new LaneVerticle(SOURCE, config.sources().get(SOURCE), config, queue, library,
        new ProgressBoard(p -> { }), InstantSource.system(), breaker, systemic));
  }

  private Future<Job> downloaded(Vertx vertx, int manga, Duration limit) {
    String id = queue.addTitle(SOURCE, String.valueOf(manga), true, LANG, List.of()).outcome().job().id();
    return lane(vertx).compose(deployed -> settled(vertx, id, limit));
  }

  /** The job once it is done, quarantined, unavailable or paused. */
  private Future<Job> settled(Vertx vertx, String id, Duration limit) {
    return Polling.until(vertx, limit, () -> {
      JobState state = queue.job(id).orElseThrow().state();
      return state == JobState.DONE || state == JobState.QUARANTINED || state == JobState.UNAVAILABLE
          || state == JobState.PAUSED;
    }).map(v -> queue.job(id).orElseThrow());
  }

  /** Checks every published page against the bytes the fake served for it; returns how many were checked. */
  private int checkPagesAreTheServersBytes(int manga) throws IOException {
    int checked = 0;
    List<Path> manifests;
    try (Stream<Path> files = Files.walk(library.root())) {
      manifests = files.filter(p -> p.getFileName().toString().equals("chapter.json"))
          .filter(p -> !p.toString().contains("/.staging")).toList();
    }
    for (Path manifest : manifests) {
      JsonObject chapter = new JsonObject(Files.readString(manifest));
      int sourceOrder = Integer.parseInt(chapter.getString("chapterId")) - manga * 1000;
      JsonArray pages = chapter.getJsonArray("pages");
      for (int i = 0; i < pages.size(); i++) {
        Path file = manifest.resolveSibling(pages.getJsonObject(i).getString("file"));
        assertThat(Files.readAllBytes(file)).as("%s", file).isEqualTo(fake.page(manga, sourceOrder, i));
        checked++;
      }
    }
    return checked;
  }

  @Test
  @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
  void aTitleIsDownloadedThroughTheBridgeByteForByte(Vertx vertx, VertxTestContext context) {
    downloaded(vertx, MANGA, Duration.ofSeconds(40)).onComplete(context.succeeding(job -> context.verify(() -> {
      assertThat(job.state()).as("%s", job.reason()).isEqualTo(JobState.DONE);
      assertThat(job.publishedChapters()).isEqualTo(3);
      assertThat(checkPagesAreTheServersBytes(MANGA)).isEqualTo(2 + 3 + 1);
      context.completeNow();
    })));
  }

  @Test
  @Timeout(value = 90, timeUnit = TimeUnit.SECONDS)
  void aHundredChaptersAgainstAServerRefusingEveryTwentiethRequestFinishByThemselves(Vertx vertx,
      VertxTestContext context) {
    List<Integer> pages = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      pages.add(1 + i % 2);
    }
    fake.addManga(LONG_MANGA, "Le Long Pont", SOURCE_ID, pages);
    fake.refuseEvery(20, 1);

    downloaded(vertx, LONG_MANGA, Duration.ofSeconds(75)).onComplete(context.succeeding(job -> context.verify(() -> {
      assertThat(job.state()).as("%s", job.reason()).isEqualTo(JobState.DONE);
      assertThat(job.publishedChapters()).isEqualTo(100);
      assertThat(checkPagesAreTheServersBytes(LONG_MANGA)).isEqualTo(150);
      assertThat(queue.lanes().lane(SOURCE).paused()).as("no paused lane").isFalse();
      List<SuwayomiFake.Exchange> journal = fake.journal();
      int refusals = 0;
      for (int i = 0; i < journal.size() - 1; i++) {
        if (journal.get(i).status() == 429) {
          refusals++;
          assertThat(Duration.between(journal.get(i).at(), journal.get(i + 1).at()))
              .as("the request after the 429 at %s waited its Retry-After", journal.get(i).at())
              .isGreaterThanOrEqualTo(Duration.ofMillis(995));
        }
      }
      assertThat(refusals).as("the server refused along the way").isGreaterThanOrEqualTo(10);
      context.completeNow();
    })));
  }

  @Test
  @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
  void aSuwayomiServerThatIsDownOpensTheLanesCircuitAndQuarantinesNothing(Vertx vertx, VertxTestContext context) {
    SuwayomiFake down = new SuwayomiFake();
    String baseUrl = down.baseUrl();
    down.stop();
    String id = queue.addTitle(SOURCE, String.valueOf(MANGA), true, LANG, List.of()).outcome().job().id();

    lane(vertx, baseUrl).compose(deployed -> Polling.until(vertx, Duration.ofSeconds(30),
        () -> breaker.state() == CircuitBreakerState.OPEN && queue.job(id).orElseThrow().state() == JobState.RETRY_WAIT))
        .onComplete(context.succeeding(v -> context.verify(() -> {
          Job job = queue.job(id).orElseThrow();
          assertThat(job.state()).as("%s", job.reason()).isEqualTo(JobState.RETRY_WAIT);
          assertThat(queue.lanes().lane(SOURCE).paused()).isFalse();
          context.completeNow();
        })));
  }

  @Test
  @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
  void aSourceUninstalledFromTheServerMakesItsJobWaitNotFail(Vertx vertx, VertxTestContext context) {
    fake.uninstall();
    String id = queue.addTitle(SOURCE, String.valueOf(MANGA), true, LANG, List.of()).outcome().job().id();

    lane(vertx).compose(deployed -> Polling.until(vertx, Duration.ofSeconds(30),
        () -> queue.lanes().lane(SOURCE).holding(java.time.Instant.now())))
        .onComplete(context.succeeding(v -> context.verify(() -> {
          assertThat(queue.lanes().lane(SOURCE).holdReason())
              .isEqualTo("source " + SOURCE_ID + " is not installed on the Suwayomi server");
          Job job = queue.job(id).orElseThrow();
          assertThat(job.state()).as("%s", job.reason()).isNotIn(JobState.PAUSED, JobState.QUARANTINED,
              JobState.UNAVAILABLE);
          assertThat(queue.lanes().lane(SOURCE).paused()).isFalse();
          context.completeNow();
        })));
  }

  @Test
  @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
  void aPageAnswerThatHangsIsAStallThatRequeuesTheJobOnceThenQuarantinesIt(Vertx vertx, VertxTestContext context) {
    fake.slowPage(MANGA, 2, 1, 60_000);
    ScraperConfig config = config(fake.baseUrl(), 3, 0, new ScraperConfig.Stall(1, 1, 0));
    StallWatchdog watchdog = new StallWatchdog(queue, library, config.sources(), config,
        new SystemicParserWatch(2, Duration.ofHours(1), InstantSource.system()), InstantSource.system());
    vertx.setPeriodic(200, tick -> vertx.executeBlocking(() -> {
      watchdog.tick();
      return null;
    }));
    String id = queue.addTitle(SOURCE, String.valueOf(MANGA), true, LANG, List.of()).outcome().job().id();

    lane(vertx, config).compose(deployed -> settled(vertx, id, Duration.ofSeconds(40)))
        .onComplete(context.succeeding(job -> context.verify(() -> {
          assertThat(job.state()).as("%s", job.reason()).isEqualTo(JobState.QUARANTINED);
          assertThat(job.reason()).startsWith("stalled again");
          assertThat(queue.incidents().list()).as("the page timeouts after the watchdog took the job change nothing")
              .allSatisfy(incident -> {
                assertThat(incident.kind()).isEqualTo(FailureKind.STALL);
                assertThat(incident.jobId()).isEqualTo(id);
              })
              .extracting(Incident::action).containsExactly("job requeued", "job quarantined");
          assertThat(fake.journal()).as("the hung page was asked once before each stall")
              .filteredOn(e -> e.path().equals("/api/v1/manga/" + MANGA + "/chapter/2/page/1")).hasSize(2);
          assertThat(checkPagesAreTheServersBytes(MANGA)).as("only chapter 1 published, whole").isEqualTo(2);
          context.completeNow();
        })));
  }

  @Test
  @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
  void aFollowedTitleGetsOnlyTheChapterTheServerAddedAtTheNextDiscovery(Vertx vertx, VertxTestContext context)
      throws IOException {
    Follows follows = Follows.open(data.resolve("scraper/follows.json"), InstantSource.system(), List::of);
    follows.follow(SOURCE, String.valueOf(MANGA), "Le Pont", LANG, List.of());
    DiscoveryService discovery = new DiscoveryService(vertx, queue, follows, events, data,
        new ScraperConfig.Discovery(false, "03:30"), Set.of(SOURCE), InstantSource.system(), ZoneId.of("UTC"));
    AtomicInteger before = new AtomicInteger();

    lane(vertx).compose(deployed -> discovery.runNow())
        .compose(first -> settled(vertx, queuedJob(first), Duration.ofSeconds(20)))
        .compose(first -> {
          assertThat(first.state()).as("%s", first.reason()).isEqualTo(JobState.DONE);
          fake.addChapter(MANGA, 2);
          before.set(fake.journal().size());
          return discovery.runNow();
        })
        .compose(second -> settled(vertx, queuedJob(second), Duration.ofSeconds(20)))
        .onComplete(context.succeeding(second -> context.verify(() -> {
          assertThat(second.state()).as("%s", second.reason()).isEqualTo(JobState.DONE);
          assertThat(second.chapters()).extracting(ChapterEntry::id).as("the new chapter was queued")
              .contains(String.valueOf(SuwayomiFake.chapterId(MANGA, 4)));
          assertThat(fake.journal().subList(before.get(), fake.journal().size()))
              .filteredOn(e -> e.path().contains("/page/")).as("only the new chapter's pages are fetched")
              .isNotEmpty().allSatisfy(e -> assertThat(e.path()).startsWith("/api/v1/manga/" + MANGA + "/chapter/4/"));
          assertThat(checkPagesAreTheServersBytes(MANGA)).isEqualTo(2 + 3 + 1 + 2);
          context.completeNow();
        })));
  }

  /** The one job a discovery pass queued. */
  private static String queuedJob(DiscoveryRun.Result run) {
    assertThat(run.queued()).hasSize(1);
    return run.queued().get(0).split(" ")[0];
  }
}
