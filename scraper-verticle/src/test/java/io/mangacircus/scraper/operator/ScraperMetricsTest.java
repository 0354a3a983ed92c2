package io.mangacircus.scraper.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureAction;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.Circuits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The scraper's gauges: names and tags as /metrics shows them, values read from the queue, removed at stop. */
@ExtendWith(VertxExtension.class)
class ScraperMetricsTest {

  @TempDir
  Path data;

  @Test
  void gaugesPerSourceAndOpenIncidentsFollowTheQueueAndGoAwayAtClose(Vertx vertx) throws Exception {
    List<String> sources = List.of("demo", "other");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (EventLog events = new EventLog(data.resolve("events.log"))) {
      JobQueue queue = new JobQueue(new QueueStore(data.resolve("queue.json")), events, InstantSource.system(),
          java.util.Set.copyOf(sources), QueueListener.NONE);
      Circuits circuits = new Circuits(vertx, sources, new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60));
      ScraperMetrics metrics = new ScraperMetrics(registry);
      metrics.register(circuits, queue);

      queue.add("demo", "t-1", false);
      queue.add("demo", "t-2", false);
      queue.incidents().record(new Failure(FailureKind.NETWORK, 503, "HTTP 503"), "demo", null, FailureAction.RETRY_LATER);

      for (String source : sources) {
        assertThat(registry.get("mc.circuit.state").tag("source", source).gauge().value()).isZero();
        assertThat(registry.get("mc.source.chapters.found").tag("source", source).gauge().value()).isZero();
        assertThat(registry.get("mc.source.last.contact").tag("source", source).gauge().value()).isNaN();
      }
      assertThat(registry.get("mc.source.titles").tag("source", "demo").gauge().value()).isEqualTo(2);
      assertThat(registry.get("mc.source.titles").tag("source", "other").gauge().value()).isZero();
      assertThat(registry.get("mc.source.last.contact").tag("source", "demo").gauge().getId().getBaseUnit())
          .isEqualTo("seconds");
      assertThat(registry.get("mc.open.incidents").gauge().value()).isEqualTo(1);
      assertThat(registry.getMeters()).hasSize(4 * sources.size() + 1);

      metrics.close();
      circuits.close();
      assertThat(registry.getMeters()).isEmpty();
    }
  }
}
