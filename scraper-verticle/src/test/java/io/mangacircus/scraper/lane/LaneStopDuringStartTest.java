package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceTypes;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop (Vert.x closing, as on SIGTERM) that reaches a lane while its start is still running: Vert.x cancels the
 * deployment and never calls the lane's stop, so the lane must not begin work, record a crash or touch the queue.
 */
class LaneStopDuringStartTest {

  private static final long WAIT_S = 20;

  @TempDir
  Path data;

  private Vertx vertx;
  private JobQueue queue;
  private SourceConfig source;
  private ScraperConfig config;
  /**
   * Stands in for the rest of the process: Vert.x stops it after it has cancelled the deployments still starting, and
   * its stop holds Vert.x's close open until the test has looked.
   */
  private final Promise<Void> restOfProcessStopped = Promise.promise();
  private final CompletableFuture<Void> stopReachedTheProcess = new CompletableFuture<>();

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    source = new SourceConfig("demo", "http://127.0.0.1:1", 0L, 0L);
    config = new ScraperConfig(0, true, 120, 50, 60, 30, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of("demo", source),
        new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
    queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")),
        new EventLog(data.resolve("scraper/events.log")), InstantSource.system(), Set.of("demo"), QueueListener.NONE);
    await(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> stop() {
        stopReachedTheProcess.complete(null);
        return restOfProcessStopped.future();
      }
    }));
  }

  @AfterEach
  void tearDown() throws Exception {
    restOfProcessStopped.tryComplete();
    await(vertx.close());
  }

  @Test
  void aStopWhileTheLaneIsStartingRecordsNoCrashClaimsNothingAndLeavesTheQueueFilesAlone() throws Exception {
    Job pending = queue.add("demo", "tightrope-walker", true).job();
    Map<String, String> filesBefore = scraperFiles();
    CompletableFuture<Context> inStart = new CompletableFuture<>();
    LaneVerticle lane = lane(client -> {
      // Inside the lane's start: hold it here until the stop has cancelled the deployment (the stop cancels the
      // deployments still starting before it stops the deployed ones).
      inStart.complete(Vertx.currentContext());
      stopReachedTheProcess.join();
      return SourceTypes.resolve("demo", source).create(vertx, client, InstantSource.system(), config,
          new RequestLines(InstantSource.system()));
    });

    Future<String> deployed = LaneVerticle.deploy(vertx, lane);
    Context laneContext = inStart.get(WAIT_S, TimeUnit.SECONDS);
    vertx.close();
    assertThatThrownBy(() -> await(deployed)).hasMessage("Verticle un-deployed");
    // The lane's context runs one task at a time: this one runs after the rest of the cancelled start.
    CompletableFuture<Void> startOver = new CompletableFuture<>();
    laneContext.runOnContext(v -> startOver.complete(null));
    startOver.get(WAIT_S, TimeUnit.SECONDS);

    assertThat(queue.incidents().list()).as("no crash recorded for a clean stop").isEmpty();
    // The lane never took its source's lock, so it never looked at the queue.
    Lock lock = await(vertx.sharedData().getLockWithTimeout(LaneVerticle.lockName("demo"), 5_000));
    lock.release();
    Job after = queue.job(pending.id()).orElseThrow();
    assertThat(after.state()).isEqualTo(pending.state());
    assertThat(after.leaseOwner()).isNull();
    assertThat(after.interruptions()).isZero();
    assertThat(scraperFiles()).as("queue.json, its journal and events.log").isEqualTo(filesBefore);
  }

  @Test
  void aLaneStoppedWhileItsLockIsOnTheWayHandsTheLockBackSoTheNextLaneCanRun() throws Exception {
    Lock heldElsewhere = await(vertx.sharedData().getLockWithTimeout(LaneVerticle.lockName("demo"), 5_000));
    String id = await(LaneVerticle.deploy(vertx, lane(client -> SourceTypes.resolve("demo", source).create(vertx,
        client, InstantSource.system(), config, new RequestLines(InstantSource.system())))));
    // The lane asked for the lock as it began; it stops before it gets it.
    await(vertx.undeploy(id));
    heldElsewhere.release();

    Lock next = await(vertx.sharedData().getLockWithTimeout(LaneVerticle.lockName("demo"), 5_000));
    next.release();
    assertThat(queue.jobs()).isEmpty();
    assertThat(queue.incidents().list()).isEmpty();
  }

  private LaneVerticle lane(java.util.function.Function<io.vertx.ext.web.client.WebClient, Source> adapter) {
    return new LaneVerticle("demo", source, config, queue, new LibraryFolders(data.resolve("library")),
        new ProgressBoard(p -> { }), InstantSource.system(),
        CircuitGuardedSource.breaker(vertx, "demo", config.failures(), state -> { }),
        new SystemicParserWatch(2, Duration.ofHours(1), InstantSource.system()), adapter);
  }

  private Map<String, String> scraperFiles() throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(data.resolve("scraper"))) {
      for (Path file : list.toList()) {
        files.put(file.getFileName().toString(), Files.readString(file));
      }
    }
    return files;
  }

  private static <T> T await(Future<T> future) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(WAIT_S, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
