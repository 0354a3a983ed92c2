package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.demosite.DemoCatalog;
import io.mangacircus.scraper.demosite.DemoChapter;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.SharedDemoCatalog;
import io.mangacircus.scraper.demosite.DemoSite;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One lane's work on its own (no verticle, no jar): a real queue and library in a temporary folder and the demo
 * adapter reading a real demo site over HTTP on loopback.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 2, timeUnit = TimeUnit.MINUTES)
class JobDownloaderTest {

  private static final Duration LEASE = Duration.ofMinutes(5);
  private static final String OWNER = "lane-demo";
  private static final String TITLE = "tightrope-walker";

  @TempDir
  Path data;

  // One catalog for the class: its pages are rendered once, not for every test (the same bytes either way).
  private static final DemoCatalog CATALOG = SharedDemoCatalog.CATALOG;
  private final DemoCatalog catalog = CATALOG;
  private final DemoFaults faults = new DemoFaults();
  private DemoSite site;
  private SourceConfig sourceConfig;
  private ScraperConfig config;
  private JobQueue queue;
  private QueueStore store;
  private LibraryFolders library;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext context) {
    store = new QueueStore(data.resolve("scraper/queue.json"));
    queue = new JobQueue(store,
        new EventLog(data.resolve("scraper/events.log")), InstantSource.system(), Set.of("demo"), QueueListener.NONE);
    library = new LibraryFolders(data.resolve("library"));
    DemoSite.start(vertx, "127.0.0.1", 0, catalog, faults).onComplete(context.succeeding(started -> {
      site = started;
      sourceConfig = new SourceConfig("demo", site.baseUrl(), 0L, 0L);
      config = new ScraperConfig(0, true, 120, 50, 60, 30, new ScraperConfig.Recovery(50, 0),
          new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of("demo", sourceConfig),
          new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
      context.completeNow();
    }));
  }

  private JobDownloader downloader(Vertx vertx, BooleanSupplier stopRequested) {
    Source source = SourceTypes.resolve("demo", sourceConfig).create(vertx, Sources.client(vertx),
        InstantSource.system(), config, new RequestLines(InstantSource.system()));
    return new JobDownloader(vertx, source, sourceConfig, queue, library, new ProgressBoard(p -> { }),
        InstantSource.system(), LEASE, OWNER, stopRequested,
        new FailureResponder(queue, "demo", new SystemicParserWatch(3, Duration.ofHours(1), InstantSource.system()),
            InstantSource.system(), Duration.ofMinutes(10)));
  }

  /** The demo source as a source that rates its titles {@code rating} (the demo site's HTML says nothing of age). */
  private JobDownloader ratedDownloader(Vertx vertx, AgeRating rating) {
    return describedDownloader(vertx, rating, null);
  }

  /** The demo source as one that rates its titles {@code rating} and describes them with {@code metadata}. */
  private JobDownloader describedDownloader(Vertx vertx, AgeRating rating, SourceSeriesMetadata metadata) {
    Source demo = SourceTypes.resolve("demo", sourceConfig).create(vertx, Sources.client(vertx),
        InstantSource.system(), config, new RequestLines(InstantSource.system()));
    Source rated = new Source() {
      @Override
      public String name() {
        return demo.name();
      }

      @Override
      public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
        return demo.title(titleRef).map(outcome -> outcome.ok() ? new FetchOutcome.Ok<>(new TitleInfo(
            outcome.value().id(), outcome.value().title(), outcome.value().chapters(), outcome.value().languages(),
            rating, metadata)) : outcome);
      }

      @Override
      public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
        return demo.pages(titleId, chapter);
      }

      @Override
      public Future<FetchOutcome<PageBytes>> page(PageRef page) {
        return demo.page(page);
      }
    };
    return new JobDownloader(vertx, rated, sourceConfig, queue, library, new ProgressBoard(p -> { }),
        InstantSource.system(), LEASE, OWNER, () -> false,
        new FailureResponder(queue, "demo", new SystemicParserWatch(3, Duration.ofHours(1), InstantSource.system()),
            InstantSource.system(), Duration.ofMinutes(10)));
  }

  /** Adds the title, inspects it as the lane does and claims it for download. */
  private Future<Job> inspectedAndClaimed(JobDownloader downloader, String title) {
    queue.add("demo", title, true);
    JobQueue.Claim inspection = queue.claim("demo", OWNER, LEASE).orElseThrow();
    assertThat(inspection.work()).isEqualTo(JobQueue.Work.INSPECT);
    return downloader.inspect(inspection.job()).map(v -> {
      JobQueue.Claim download = queue.claim("demo", OWNER, LEASE).orElseThrow();
      assertThat(download.work()).isEqualTo(JobQueue.Work.DOWNLOAD);
      return download.job();
    });
  }

  private List<DemoChapter> english(String title) {
    return catalog.series(title).orElseThrow().chapters().stream().filter(c -> c.language().equals("en")).toList();
  }

  private int pages(String title) {
    return english(title).stream().mapToInt(DemoChapter::pages).sum();
  }

  /** Every published {@code chapter.json} in the library. */
  private List<JsonObject> published() throws IOException {
    try (Stream<Path> files = Files.walk(library.root())) {
      return files.filter(p -> p.getFileName().toString().equals("chapter.json"))
          .filter(p -> !p.toString().contains("/.staging")).map(p -> {
            try {
              return new JsonObject(Files.readString(p));
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }).toList();
    }
  }

  @Test
  void inspectionRecordsOnlyTheEnglishChapters(Vertx vertx, VertxTestContext context) {
    inspectedAndClaimed(downloader(vertx, () -> false), "lion-tamer").onComplete(context.succeeding(job ->
        context.verify(() -> {
          assertThat(job.title()).isEqualTo("The Lion Tamer");
          assertThat(job.chapters()).extracting(c -> c.id()).containsExactly("c1", "c2");
          assertThat(site.imageRequests()).isZero();
          context.completeNow();
        })));
  }

  @Test
  void inspectionRecordsTheChaptersOfTheJobsLanguage(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);
    queue.addTitle("demo", "lion-tamer", true, "fr", List.of());
    JobQueue.Claim inspection = queue.claim("demo", OWNER, LEASE).orElseThrow();

    downloader.inspect(inspection.job()).onComplete(context.succeeding(v -> context.verify(() -> {
      Job job = queue.job(inspection.job().id()).orElseThrow();
      assertThat(job.chapters()).extracting(c -> c.id()).containsExactly("c2-fr");
      context.completeNow();
    })));
  }

  @Test
  void aFrenchJobPublishesItsChaptersAsFrenchInChapterJsonAndComicInfo(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);
    queue.addTitle("demo", "lion-tamer", true, "fr", List.of());
    JobQueue.Claim inspection = queue.claim("demo", OWNER, LEASE).orElseThrow();

    downloader.inspect(inspection.job()).map(v -> queue.claim("demo", OWNER, LEASE).orElseThrow().job())
        .compose(job -> downloader.download(job).map(job))
        .onComplete(context.succeeding(job -> context.verify(() -> {
          assertThat(published()).singleElement().satisfies(chapter -> {
            assertThat(chapter.getString("chapterId")).isEqualTo("c2-fr");
            assertThat(chapter.getString("language")).isEqualTo("fr");
          });
          try (Stream<Path> files = Files.walk(library.root())) {
            List<Path> comicInfos = files.filter(p -> p.getFileName().toString().equals("ComicInfo.xml")).toList();
            assertThat(comicInfos).singleElement().satisfies(xml -> assertThat(Files.readString(xml))
                .contains("<LanguageISO>fr</LanguageISO>"));
          }
          context.completeNow();
        })));
  }

  @Test
  void aLanguageTheSourceDoesNotHaveMakesTheJobUnavailableAndSaysWhich(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);
    queue.addTitle("demo", "lion-tamer", true, "de", List.of());
    JobQueue.Claim inspection = queue.claim("demo", OWNER, LEASE).orElseThrow();

    downloader.inspect(inspection.job()).onComplete(context.succeeding(v -> context.verify(() -> {
      Job job = queue.job(inspection.job().id()).orElseThrow();
      assertThat(job.state()).isEqualTo(JobState.UNAVAILABLE);
      assertThat(job.reason()).isEqualTo("unavailable: no German (de) chapters (3 chapters in other languages: en, fr)");
      context.completeNow();
    })));
  }

  @Test
  void aClaimedJobFetchesEveryPageOncePublishesEveryChapterAndEndsDone(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);

    inspectedAndClaimed(downloader, TITLE).compose(job -> downloader.download(job).map(job))
        .onComplete(context.succeeding(job -> context.verify(() -> {
          Job done = queue.job(job.id()).orElseThrow();
          assertThat(done.state()).isEqualTo(JobState.DONE);
          assertThat(done.publishedChapters()).isEqualTo(english(TITLE).size());
          assertThat(site.imageRequests()).isEqualTo(pages(TITLE));
          List<JsonObject> chapters = published();
          assertThat(chapters).hasSize(english(TITLE).size());
          for (JsonObject chapter : chapters) {
            DemoChapter expected = catalog.chapter(TITLE, chapter.getString("chapterId")).orElseThrow();
            assertThat(chapter.getJsonArray("pages")).hasSize(expected.pages());
          }
          context.completeNow();
        })));
  }

  @Test
  void aRatedTitlesChaptersArePublishedWithItsRatingInChapterJsonAndComicInfo(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = ratedDownloader(vertx, AgeRating.FIFTEEN_PLUS);

    inspectedAndClaimed(downloader, TITLE).compose(job -> downloader.download(job).map(job))
        .onComplete(context.succeeding(job -> context.verify(() -> {
          assertThat(job.rating()).as("kept on the job by its inspection").isEqualTo(AgeRating.FIFTEEN_PLUS);
          List<JsonObject> chapters = published();
          assertThat(chapters).hasSize(english(TITLE).size());
          assertThat(chapters).extracting(c -> c.getString("ageRating")).containsOnly("15");
          try (Stream<Path> files = Files.walk(library.root())) {
            List<String> comicInfos = files.filter(p -> p.getFileName().toString().equals("ComicInfo.xml"))
                .map(p -> {
                  try {
                    return Files.readString(p);
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                }).toList();
            assertThat(comicInfos).hasSize(english(TITLE).size())
                .allSatisfy(xml -> assertThat(xml).contains("<AgeRating>MA15+</AgeRating>"));
          }
          context.completeNow();
        })));
  }

  @Test
  void whatTheSourceSaysOfATitleIsWrittenIntoItsSeriesFolderAtPublication(Vertx vertx, VertxTestContext context) {
    SourceSeriesMetadata said = new SourceSeriesMetadata(1, "elsewhere", "other-id", "The Tightrope Walker",
        "A walker on a rope.", List.of(new SourceSeriesMetadata.Author("Aoi Hoshino", "writer")), List.of("Drama"),
        List.of("Circus"), "ongoing", 2020, "ja",
        List.of(new SourceSeriesMetadata.Link("anilist", "42", "https://anilist.co/manga/42")));
    JobDownloader downloader = describedDownloader(vertx, AgeRating.UNRATED, said);

    inspectedAndClaimed(downloader, TITLE).compose(job -> {
      assertThat(library.root()).as("an inspection creates no series folder").doesNotExist();
      return downloader.download(job).map(job);
    }).onComplete(context.succeeding(job -> context.verify(() -> {
      Path series = library.series("demo", job.titleId(), job.title());
      SourceSeriesMetadata kept = SourceSeriesMetadata.read(series);
      assertThat(kept.source()).as("named after the job's source and title").isEqualTo("demo");
      assertThat(kept.titleId()).isEqualTo(job.titleId());
      assertThat(kept.summary()).isEqualTo("A walker on a rope.");
      assertThat(kept.authors()).isEqualTo(said.authors());
      assertThat(kept.genres()).containsExactly("Drama");
      assertThat(kept.links()).isEqualTo(said.links());
      try (Stream<Path> files = Files.walk(series)) {
        List<Path> comicInfos = files.filter(p -> p.getFileName().toString().equals("ComicInfo.xml")).toList();
        assertThat(comicInfos).hasSize(english(TITLE).size());
        for (Path comicInfo : comicInfos) {
          assertThat(Files.readString(comicInfo)).as("the CBZ download carries the chapter's own ComicInfo.xml")
              .contains("<Summary>A walker on a rope.</Summary>", "<Writer>Aoi Hoshino</Writer>",
                  "<Genre>Drama</Genre>", "<Web>https://anilist.co/manga/42</Web>");
        }
      }
      context.completeNow();
    })));
  }

  @Test
  void anUnratedTitlesChaptersCarryNoRating(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);

    inspectedAndClaimed(downloader, TITLE).compose(job -> downloader.download(job).map(job))
        .onComplete(context.succeeding(job -> context.verify(() -> {
          assertThat(published()).isNotEmpty().allSatisfy(c -> assertThat(c.containsKey("ageRating")).isFalse());
          context.completeNow();
        })));
  }

  @Test
  void aTitleAddedAgainAfterItsDownloadCostsNoImageRequest(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);

    inspectedAndClaimed(downloader, TITLE).compose(job -> downloader.download(job))
        .compose(v -> inspectedAndClaimed(downloader, TITLE))
        .compose(again -> downloader.download(again).map(again))
        .onComplete(context.succeeding(again -> context.verify(() -> {
          assertThat(queue.job(again.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
          assertThat(site.imageRequests()).as("no page fetched twice").isEqualTo(pages(TITLE));
          assertThat(published()).hasSize(english(TITLE).size());
          context.completeNow();
        })));
  }

  @Test
  void aStopRequestGivesTheJobBackAtACheckpointAndTheResumeFetchesOnlyTheMissingPages(Vertx vertx,
      VertxTestContext context) {
    JobDownloader stopping = downloader(vertx, () -> site.imageRequests() >= 5);

    inspectedAndClaimed(stopping, TITLE).compose(job -> stopping.download(job).map(job)).compose(job -> {
      context.verify(() -> {
        Job given = queue.job(job.id()).orElseThrow();
        assertThat(given.state()).isEqualTo(JobState.PENDING);
        assertThat(given.attempts()).isZero();
        assertThat(queue.holds(job.id(), OWNER)).isFalse();
        assertThat(published()).isEmpty();
        assertThat(openCheckpointLogs()).as("the stopped chapter's checkpoint log is closed").isZero();
      });
      JobQueue.Claim resumed = queue.claim("demo", OWNER, LEASE).orElseThrow();
      return downloader(vertx, () -> false).download(resumed.job()).map(job);
    }).onComplete(context.succeeding(job -> context.verify(() -> {
      assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
      assertThat(site.imageRequests()).as("validated pages are not fetched again").isEqualTo(pages(TITLE));
      assertThat(published()).hasSize(english(TITLE).size());
      context.completeNow();
    })));
  }

  @Test
  void aPageThatIsNotAnImageQuarantinesTheJobAndPublishesNothing(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);
    faults.htmlInsteadOfImageNext("/img/", 1);

    inspectedAndClaimed(downloader, TITLE).compose(job -> downloader.download(job).map(job))
        .onComplete(context.succeeding(job -> context.verify(() -> {
          assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.QUARANTINED);
          assertThat(queue.incidents().list()).singleElement().satisfies(incident -> {
            assertThat(incident.kind()).isEqualTo(FailureKind.PARSER);
            assertThat(incident.message()).contains("not a valid image");
          });
          assertThat(published()).isEmpty();
          context.completeNow();
        })));
  }

  @Test
  void eachDownloadedChapterCostsTwoQueueCommits(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);
    int chapters = english(TITLE).size();

    long[] snapshotsBefore = new long[1];
    inspectedAndClaimed(downloader, TITLE).compose(job -> {
      long before = store.saves();
      snapshotsBefore[0] = store.compactions();
      return downloader.download(job).map(v -> store.saves() - before);
    }).onComplete(context.succeeding(commits -> context.verify(() -> {
      // fetching, then published after the rename; then one for the job's end. Pages cost none.
      assertThat(commits).isEqualTo(2L * chapters + 1);
      // Each commit is a journal line: queue.json (every job) is not rewritten per chapter.
      assertThat(store.compactions()).isEqualTo(snapshotsBefore[0]);
      List<String> stages = Files.readAllLines(data.resolve("scraper/events.log")).stream()
          .filter(line -> line.contains("\"type\":\"chapter.stage\"")).toList();
      assertThat(stages).hasSize(2 * chapters);
      assertThat(stages).filteredOn(line -> line.contains("\"to\":\"published\"")).hasSize(chapters)
          .allSatisfy(line -> assertThat(line).contains("\"from\":\"fetching\""));
      assertThat(openCheckpointLogs()).as("no checkpoint log left open").isZero();
      context.completeNow();
    })));
  }

  /** This process's file descriptors open on a staging folder's checkpoint log (Linux /proc). */
  private static long openCheckpointLogs() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().contains("checkpoint.log");
        } catch (IOException e) {
          return false;
        }
      }).count();
    }
  }

  /** Runs {@code work} on a worker context, as the lane verticle runs its downloader. */
  private static <T> Future<T> onWorkerContext(Vertx vertx, Supplier<Future<T>> work) {
    Promise<T> result = Promise.promise();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        work.get().onComplete(result);
        return Future.succeededFuture();
      }
    }, new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).onFailure(result::tryFail);
    return result.future();
  }

  @Test
  void inDecodeModeEveryPageIsDecodedStoredAndEveryChapterPublished(Vertx vertx, VertxTestContext context) {
    sourceConfig = sourceConfig.withValidation("decode");
    JobDownloader downloader = downloader(vertx, () -> false);
    String title = "lion-tamer";

    onWorkerContext(vertx, () -> inspectedAndClaimed(downloader, title).compose(job -> downloader.download(job)
        .map(job))).onComplete(context.succeeding(job -> context.verify(() -> {
          Job done = queue.job(job.id()).orElseThrow();
          assertThat(done.state()).isEqualTo(JobState.DONE);
          assertThat(done.publishedChapters()).isEqualTo(english(title).size());
          assertThat(site.imageRequests()).isEqualTo(pages(title));
          List<JsonObject> chapters = published();
          assertThat(chapters).hasSize(english(title).size());
          for (JsonObject chapter : chapters) {
            DemoChapter expected = catalog.chapter(title, chapter.getString("chapterId")).orElseThrow();
            assertThat(chapter.getJsonArray("pages")).hasSize(expected.pages());
          }
          context.completeNow();
        })));
  }

  @Test
  void inDecodeModeAPageWhoseImageDataIsDamagedFailsTheJobAndPublishesNothing(Vertx vertx,
      VertxTestContext context) {
    sourceConfig = sourceConfig.withValidation("decode");
    JobDownloader downloader = downloader(vertx, () -> false);
    faults.damageNext("/img/", 1);

    onWorkerContext(vertx, () -> inspectedAndClaimed(downloader, "lion-tamer").compose(job -> downloader.download(job)
        .map(job))).onComplete(context.succeeding(job -> context.verify(() -> {
          assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.QUARANTINED);
          assertThat(queue.incidents().list()).singleElement().satisfies(incident -> {
            assertThat(incident.kind()).isEqualTo(FailureKind.PARSER);
            assertThat(incident.message()).contains("page 1 of chapter 1 is not a valid image: JPEG does not decode");
          });
          assertThat(published()).isEmpty();
          context.completeNow();
        })));
  }

  @Test
  void inStructureModeTheSameDamagedPageIsAcceptedWithoutADecode(Vertx vertx, VertxTestContext context) {
    JobDownloader downloader = downloader(vertx, () -> false);
    faults.damageNext("/img/", 1);

    onWorkerContext(vertx, () -> inspectedAndClaimed(downloader, "lion-tamer").compose(job -> downloader.download(job)
        .map(job))).onComplete(context.succeeding(job -> context.verify(() -> {
          assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
          assertThat(published()).hasSize(english("lion-tamer").size());
          context.completeNow();
        })));
  }
}
