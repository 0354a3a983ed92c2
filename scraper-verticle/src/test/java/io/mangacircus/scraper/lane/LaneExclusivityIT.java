package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.demo.DemoCatalog;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.mangacircus.scraper.demo.DemoFaults;
import io.mangacircus.scraper.demo.DemoSite;
import io.mangacircus.scraper.publish.LibraryLayout;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two lanes for one source: only the holder of the source's lock works; the other takes over when it stops. */
class LaneExclusivityIT {

  @TempDir
  Path data;

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static <T> T result(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void aSecondLaneForTheSameSourceWaitsForTheLockAndTakesOverWhenTheFirstStops() throws Exception {
    DemoSite site = result(DemoSite.start(vertx, "127.0.0.1", 0, new DemoCatalog(), new DemoFaults()));
    SourceConfig source = new SourceConfig("demo", site.baseUrl(), 0L, 0L);
    ScraperConfig config = new ScraperConfig(0, true, 120, 50, 60, 30, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of("demo", source),
        new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
    CircuitBreaker breaker = CircuitGuardedSource.breaker(vertx, "demo", config.failures(), state -> { });
    SystemicParserWatch systemic = new SystemicParserWatch(2, Duration.ofHours(1), InstantSource.system());
    JobQueue queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")),
        new EventLog(data.resolve("scraper/events.log")), InstantSource.system(), Set.of("demo"), QueueListener.NONE);
    LibraryLayout library = new LibraryLayout(data.resolve("library"));
    ProgressBoard progress = new ProgressBoard(p -> { });
    DeploymentOptions worker = new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER);

    String first = result(vertx.deployVerticle(new LaneVerticle("demo", source, config, queue, library, progress,
        InstantSource.system(), breaker, systemic), worker));
    String second = result(vertx.deployVerticle(new LaneVerticle("demo", source, config, queue, library, progress,
        InstantSource.system(), breaker, systemic), worker));
    String firstJob = queue.add("demo", "tightrope-walker", true).job().id();
    await().atMost(Duration.ofSeconds(60)).until(() -> queue.job(firstJob).orElseThrow().state() == JobState.DONE);

    assertThat(claimOwners()).as("only one lane ever claimed work").hasSize(1).allMatch(o -> o.endsWith("/" + first));

    result(vertx.undeploy(first));
    String secondJob = queue.add("demo", "lion-tamer", true).job().id();
    await().atMost(Duration.ofSeconds(60)).until(() -> queue.job(secondJob).orElseThrow().state() == JobState.DONE);

    assertThat(claimOwners()).hasSize(2).anyMatch(o -> o.endsWith("/" + second));
  }

  private Set<String> claimOwners() throws Exception {
    return Files.readAllLines(data.resolve("scraper/events.log")).stream().map(JsonObject::new)
        .map(e -> java.util.Objects.toString(e.getString("reason"), "")).filter(r -> r.startsWith("claimed by "))
        .map(r -> r.substring("claimed by ".length())).collect(Collectors.toSet());
  }
}
