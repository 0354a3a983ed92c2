package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.config.MangaCircusConfig.Supervision;
import io.mangacircus.launcher.state.ProcessInfo;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.state.ServiceRuntime;
import io.mangacircus.launcher.supervision.ServiceSpec;
import io.mangacircus.launcher.supervision.ServiceSupervisor;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process stops (SIGTERM) while a supervised service is still starting (a first deploy or a redeploy): the service
 * still gets its stop once its start is over, and its supervisor counts no failure for it.
 */
class StopDuringServiceStartTest {

  private static final Supervision FAST = new Supervision(200, 150, 3, 3, 60, 50, 2.0, 200, 5);

  @TempDir
  Path dir;

  private Vertx vertx;
  private final CompletableFuture<Context> serviceStarting = new CompletableFuture<>();
  private final Promise<Void> serviceStartDone = Promise.promise();
  private final AtomicInteger serviceStops = new AtomicInteger();
  private ServiceSupervisor supervisor;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    serviceStartDone.tryComplete();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A service whose start (the scraper opening its queue) lasts until the test ends it. */
  private final class SlowStartingService extends VerticleBase {
    @Override
    public Future<?> start() {
      serviceStarting.complete(context);
      return serviceStartDone.future();
    }

    @Override
    public Future<?> stop() {
      serviceStops.incrementAndGet();
      return Future.succeededFuture();
    }
  }

  /** The launcher's part: supervises the service and stops its supervisor when it is undeployed. */
  private final class Launcher extends VerticleBase {
    @Override
    public Future<?> start() {
      ServiceSpec spec = new ServiceSpec("scraper", SlowStartingService::new, new DeploymentOptions(),
          dir.resolve("scraper.runtime.json"));
      supervisor = new ServiceSupervisor(vertx, context, spec, FAST, InstantSource.system(), new RuntimeStateStore(),
          new ProcessInfo(1, "all", "http://127.0.0.1:1/health/ready", Instant.now()), () -> { });
      // Not waited for: the launcher is up while the service's (re)deploy is under way.
      supervisor.start();
      return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
      return supervisor.stop();
    }
  }

  @Test
  void aStopWhileAServiceIsStartingStopsItOnceItHasStartedAndCountsNoFailure() throws Exception {
    String launcher = vertx.deployVerticle(new Launcher()).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    Context service = serviceStarting.get(10, TimeUnit.SECONDS);

    CompletableFuture<Void> stopped = LauncherProcess.shutDown(vertx, launcher);
    await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.status() == ServiceStatus.STOPPED);
    // The start ends on the service's own context, as the scraper's does once its queue is open.
    service.runOnContext(v -> serviceStartDone.complete());
    stopped.get(20, TimeUnit.SECONDS);

    assertThat(serviceStops.get()).as("the service's stop ran (the scraper closes its queue there)").isPositive();
    assertThat(supervisor.state().failuresInWindow()).isZero();
    ServiceRuntime persisted = new RuntimeStateStore().load(dir.resolve("scraper.runtime.json")).orElseThrow()
        .services().get("scraper");
    assertThat(persisted.status()).isEqualTo(ServiceStatus.STOPPED);
    assertThat(persisted.failures()).isEmpty();
    assertThat(persisted.reason()).isNull();
  }
}
