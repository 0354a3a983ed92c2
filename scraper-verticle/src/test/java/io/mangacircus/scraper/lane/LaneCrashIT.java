package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.SharedDemoCatalog;
import io.mangacircus.scraper.demosite.DemoSite;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.TitleInfo;
import io.mangacircus.testing.Polling;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A lane whose adapter throws (a bug): the job is given back without an attempt, the lane starts over, and a third
 * crash within the hour parks the lane. */
@ExtendWith(VertxExtension.class)
class LaneCrashIT {

  @TempDir
  Path data;

  private DemoSite site;
  private JobQueue queue;

  @BeforeEach
  void startSite(Vertx vertx, VertxTestContext context) {
    DemoSite.start(vertx, "127.0.0.1", 0, SharedDemoCatalog.CATALOG, new DemoFaults())
        .onComplete(context.succeeding(started -> {
          site = started;
          context.completeNow();
        }));
  }

  /** The demo adapter, except that page fetches throw while {@code crashesLeft} is positive. */
  private static final class BuggySource implements Source {
    private final Source real;
    private final AtomicInteger crashesLeft;

    BuggySource(Source real, AtomicInteger crashesLeft) {
      this.real = real;
      this.crashesLeft = crashesLeft;
    }

    @Override
    public String name() {
      return real.name();
    }

    @Override
    public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
      return real.title(titleRef);
    }

    @Override
    public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
      return real.pages(titleId, chapter);
    }

    @Override
    public Future<FetchOutcome<PageBytes>> page(PageRef page) {
      if (crashesLeft.getAndDecrement() > 0) {
        throw new IllegalStateException("adapter bug on page " + page.index());
      }
      return real.page(page);
    }
  }

  /** Deploys a lane whose adapter throws {@code crashes} times, and sets {@link #queue}. */
  private Future<String> deployLane(Vertx vertx, AtomicInteger crashes) {
    SourceConfig source = new SourceConfig("demo", site.baseUrl(), 0L, 0L);
    ScraperConfig config = new ScraperConfig(0, true, 120, 50, 60, 30, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of("demo", source),
        new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
    queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")),
        new EventLog(data.resolve("scraper/events.log")), InstantSource.system(), Set.of("demo"), QueueListener.NONE);
    return LaneVerticle.deploy(vertx, new LaneVerticle("demo", source, config, queue,
        new LibraryFolders(data.resolve("library")), new ProgressBoard(p -> { }), InstantSource.system(),
        CircuitGuardedSource.breaker(vertx, "demo", config.failures(), state -> { }),
        new SystemicParserWatch(2, Duration.ofHours(1), InstantSource.system()),
        client -> new BuggySource(SourceTypes.resolve("demo", source).create(vertx, client, InstantSource.system(),
            config, new RequestLines(InstantSource.system())), crashes)));
  }

  @Test
  @Timeout(value = 90, timeUnit = TimeUnit.SECONDS)
  void aCrashingLaneGivesItsJobBackWithoutAnAttemptAndCarriesOn(Vertx vertx, VertxTestContext context) {
    deployLane(vertx, new AtomicInteger(2)).compose(lane -> {
      String id = queue.add("demo", "tightrope-walker", true).job().id();
      return Polling.until(vertx, Duration.ofSeconds(60), () -> queue.job(id).orElseThrow().state() == JobState.DONE)
          .map(v -> queue.job(id).orElseThrow());
    }).onComplete(context.succeeding(done -> context.verify(() -> {
      assertThat(done.attempts()).isZero();
      assertThat(done.interruptions()).isEqualTo(2);
      assertThat(queue.incidents().list()).filteredOn(i -> i.kind() == FailureKind.CRASH).hasSize(2)
          .allMatch(i -> i.action().equals("job requeued"));
      assertThat(queue.lanes().lane("demo").paused()).isFalse();
      context.completeNow();
    })));
  }

  @Test
  @Timeout(value = 60, timeUnit = TimeUnit.SECONDS)
  void aThirdCrashWithinTheHourParksTheLane(Vertx vertx, VertxTestContext context) {
    deployLane(vertx, new AtomicInteger(1_000)).compose(lane -> {
      String id = queue.add("demo", "tightrope-walker", true).job().id();
      return Polling.until(vertx, Duration.ofSeconds(30), () -> queue.lanes().lane("demo").paused())
          .map(v -> queue.job(id).orElseThrow());
    }).onComplete(context.succeeding(job -> context.verify(() -> {
      assertThat(queue.lanes().lane("demo").pauseReason()).contains("crashed 3 times");
      List<Incident> crashes = queue.incidents().list().stream().filter(i -> i.kind() == FailureKind.CRASH).toList();
      assertThat(crashes).hasSize(3);
      assertThat(crashes.get(2).action()).isEqualTo("lane paused");
      assertThat(job.state()).isEqualTo(JobState.PENDING);
      assertThat(job.attempts()).isZero();
      context.completeNow();
    })));
  }
}
