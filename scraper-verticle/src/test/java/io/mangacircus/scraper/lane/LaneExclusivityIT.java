package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.SharedDemoCatalog;
import io.mangacircus.scraper.demosite.DemoSite;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.testing.Polling;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Two lanes for one source: only the holder of the source's lock works; the other takes over when it stops. */
@ExtendWith(VertxExtension.class)
class LaneExclusivityIT {

  @TempDir
  Path data;

  @Test
  @Timeout(value = 150, timeUnit = TimeUnit.SECONDS)
  void aSecondLaneForTheSameSourceWaitsForTheLockAndTakesOverWhenTheFirstStops(Vertx vertx,
      VertxTestContext context) {
    JobQueue queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")),
        new EventLog(data.resolve("scraper/events.log")), InstantSource.system(), Set.of("demo"), QueueListener.NONE);
    LibraryFolders library = new LibraryFolders(data.resolve("library"));
    ProgressBoard progress = new ProgressBoard(p -> { });
    List<String> lanes = new ArrayList<>();

    DemoSite.start(vertx, "127.0.0.1", 0, SharedDemoCatalog.CATALOG, new DemoFaults()).compose(site -> {
      SourceConfig source = new SourceConfig("demo", site.baseUrl(), 0L, 0L);
      ScraperConfig config = new ScraperConfig(0, true, 120, 50, 60, 30, new ScraperConfig.Recovery(50, 0),
          new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of("demo", source),
          new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
      CircuitBreaker breaker = CircuitGuardedSource.breaker(vertx, "demo", config.failures(), state -> { });
      SystemicParserWatch systemic = new SystemicParserWatch(2, Duration.ofHours(1), InstantSource.system());
      return LaneVerticle.deploy(vertx, new LaneVerticle("demo", source, config, queue, library, progress,
          InstantSource.system(), breaker, systemic)).onSuccess(lanes::add)
          .compose(first -> LaneVerticle.deploy(vertx, new LaneVerticle("demo", source, config, queue, library,
              progress, InstantSource.system(), breaker, systemic))).onSuccess(lanes::add);
    }).compose(second -> {
      String firstJob = queue.add("demo", "tightrope-walker", true).job().id();
      return Polling.until(vertx, Duration.ofSeconds(60),
          () -> queue.job(firstJob).orElseThrow().state() == JobState.DONE);
    }).compose(firstDone -> {
      context.verify(() -> assertThat(claimOwners()).as("only one lane ever claimed work").hasSize(1)
          .allMatch(o -> o.endsWith("/" + lanes.get(0))));
      return vertx.undeploy(lanes.get(0));
    }).compose(undeployed -> {
      String secondJob = queue.add("demo", "lion-tamer", true).job().id();
      return Polling.until(vertx, Duration.ofSeconds(60),
          () -> queue.job(secondJob).orElseThrow().state() == JobState.DONE);
    }).onComplete(context.succeeding(secondDone -> context.verify(() -> {
      assertThat(claimOwners()).hasSize(2).anyMatch(o -> o.endsWith("/" + lanes.get(1)));
      context.completeNow();
    })));
  }

  private Set<String> claimOwners() throws Exception {
    return Files.readAllLines(data.resolve("scraper/events.log")).stream().map(JsonObject::new)
        .map(e -> java.util.Objects.toString(e.getString("reason"), "")).filter(r -> r.startsWith("claimed by "))
        .map(r -> r.substring("claimed by ".length())).collect(Collectors.toSet());
  }
}
