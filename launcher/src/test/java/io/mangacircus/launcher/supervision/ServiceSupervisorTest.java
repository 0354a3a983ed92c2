package io.mangacircus.launcher.supervision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.ServiceState;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.config.MangaCircusConfig.Supervision;
import io.mangacircus.launcher.state.ProcessInfo;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.state.ServiceRuntime;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor's decision on a deploy that fails because a state file does not parse: blocked once, no retry, no
 * crash budget spent, the file untouched; a retry start (or the next start) deploys it again once the file parses.
 */
class ServiceSupervisorTest {

  private static final Supervision FAST = new Supervision(200, 150, 3, 3, 60, 50, 2.0, 200, 5);

  @TempDir
  Path dir;

  private Vertx vertx;
  private Context context;
  private Path stateFile;
  private Path runtimeFile;
  private final AtomicInteger deploys = new AtomicInteger();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
    stateFile = dir.resolve("queue.json");
    runtimeFile = dir.resolve("runtime.json");
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Reads {@link #stateFile} on deploy like the real stores do: a file that is not {@code {}} does not parse. */
  private final class ReadsItsStateFile extends VerticleBase {
    @Override
    public Future<?> start() {
      deploys.incrementAndGet();
      return vertx.executeBlocking(() -> {
        String text = Files.exists(stateFile) ? Files.readString(stateFile) : "{}";
        if (!text.equals("{}")) {
          // Wrapped, as a store's caller may do: the supervisor looks through the cause chain.
          throw new IllegalStateException("could not open the queue",
              new CorruptStateFileException(stateFile, "is not valid JSON (line 1): unexpected end-of-input"));
        }
        return null;
      }).compose(v -> vertx.eventBus().consumer(Addresses.pingOf("scraper"),
          m -> m.reply(new PingReply("scraper", "test", 1L).toJson())).completion());
    }
  }

  private ServiceSupervisor supervisor(Supplier<io.vertx.core.Deployable> service) {
    ServiceSpec spec = new ServiceSpec("scraper", service, new DeploymentOptions(), runtimeFile);
    return new ServiceSupervisor(vertx, context, spec, FAST, InstantSource.system(), new RuntimeStateStore(),
        new ProcessInfo(1, "all", "http://127.0.0.1:1/health/ready", Instant.now()), () -> { });
  }

  private <T> T onContext(Supplier<Future<T>> action) throws Exception {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> action.get().onComplete(promise));
    return promise.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private ServiceRuntime persisted() {
    return new RuntimeStateStore().load(runtimeFile).orElseThrow().services().get("scraper");
  }

  @Test
  void aDeployThatFailsOnACorruptStateFileIsBlockedOnceWithoutRetryOrBudget() throws Exception {
    Files.writeString(stateFile, "{\"schema\":2,\"jo");
    byte[] before = Files.readAllBytes(stateFile);
    ServiceSupervisor supervisor = supervisor(ReadsItsStateFile::new);

    onContext(supervisor::start);

    assertThat(supervisor.status()).isEqualTo(ServiceStatus.BLOCKED);
    ServiceState state = supervisor.state();
    assertThat(state.reason()).isEqualTo("corrupt state file " + stateFile
        + ": is not valid JSON (line 1): unexpected end-of-input");
    assertThat(state.failuresInWindow()).isZero();
    assertThat(state.restarts()).isZero();
    // No retry however long we look: several backoff periods and ping intervals pass.
    await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2)).until(() -> deploys.get() == 1);
    assertThat(supervisor.status()).isEqualTo(ServiceStatus.BLOCKED);
    assertThat(persisted().status()).isEqualTo(ServiceStatus.BLOCKED);
    assertThat(persisted().failures()).isEmpty();
    assertThat(persisted().reason()).startsWith("corrupt state file ");
    assertThat(Files.readAllBytes(stateFile)).isEqualTo(before);
  }

  @Test
  void aRetryStartAfterTheFileIsRepairedBringsTheServiceUpWithItsBudgetUntouched() throws Exception {
    Files.writeString(stateFile, "garbage");
    ServiceSupervisor supervisor = supervisor(ReadsItsStateFile::new);
    onContext(supervisor::start);
    assertThat(supervisor.status()).isEqualTo(ServiceStatus.BLOCKED);

    ServiceState stillCorrupt = onContext(() -> supervisor.retryStart("test"));
    assertThat(stillCorrupt.status()).isEqualTo(ServiceStatus.BLOCKED);
    assertThat(deploys).hasValue(2);

    Files.writeString(stateFile, "{}");
    ServiceState repaired = onContext(() -> supervisor.retryStart("test"));

    assertThat(repaired.status()).isEqualTo(ServiceStatus.UP);
    assertThat(repaired.reason()).isNull();
    assertThat(repaired.failuresInWindow()).isZero();
    assertThat(deploys).hasValue(3);
    await().atMost(Duration.ofSeconds(5)).until(() -> persisted().status() == ServiceStatus.UP);
    assertThat(persisted().failures()).isEmpty();
  }

  @Test
  void aRetryStartIsRefusedForAServiceThatIsNotBlocked() throws Exception {
    ServiceSupervisor supervisor = supervisor(ReadsItsStateFile::new);
    onContext(supervisor::start);
    assertThat(supervisor.status()).isEqualTo(ServiceStatus.UP);

    Promise<ServiceState> refused = Promise.promise();
    context.runOnContext(v -> supervisor.retryStart("test").onComplete(refused));
    await().atMost(Duration.ofSeconds(5)).until(() -> refused.future().isComplete());

    assertThat(refused.future().failed()).isTrue();
    assertThat(refused.future().cause().getMessage()).contains("scraper is up, not blocked");
    assertThat(deploys).hasValue(1);
  }

  @Test
  void aParkedServiceCannotBeRetryStartedSoItsBudgetIsNeverCleared() throws Exception {
    Instant now = Instant.now();
    new RuntimeStateStore().save(runtimeFile, new RuntimeStateStore.RuntimeFile(java.util.Map.of("scraper",
        new ServiceRuntime(ServiceStatus.REPAIR_REQUIRED, java.util.List.of(now, now, now), now, 2, "crash budget spent")),
        null));
    ServiceSupervisor supervisor = supervisor(ReadsItsStateFile::new);
    onContext(supervisor::start);
    assertThat(supervisor.status()).isEqualTo(ServiceStatus.REPAIR_REQUIRED);

    Promise<ServiceState> refused = Promise.promise();
    context.runOnContext(v -> supervisor.retryStart("test").onComplete(refused));
    await().atMost(Duration.ofSeconds(5)).until(() -> refused.future().isComplete());

    assertThat(refused.future().cause().getMessage()).contains("repair-required, not blocked", "crash budget reset");
    assertThat(deploys).hasValue(0);
    assertThat(persisted().failures()).hasSize(3);
  }

  @Test
  void anUnreadableRuntimeFileBlocksTheServiceWithoutWritingItUntilItParsesAgain() throws Exception {
    Files.writeString(runtimeFile, "{\"schema\":1,\"services\":{");
    byte[] before = Files.readAllBytes(runtimeFile);
    ServiceSupervisor supervisor = supervisor(ReadsItsStateFile::new);

    onContext(supervisor::start);

    assertThat(supervisor.status()).isEqualTo(ServiceStatus.BLOCKED);
    assertThat(supervisor.state().reason()).startsWith("corrupt state file " + runtimeFile + ": is not valid JSON");
    assertThat(deploys).hasValue(0);
    assertThat(Files.readAllBytes(runtimeFile)).isEqualTo(before);

    Files.delete(runtimeFile);
    ServiceState repaired = onContext(() -> supervisor.retryStart("test"));

    assertThat(repaired.status()).isEqualTo(ServiceStatus.UP);
    await().atMost(Duration.ofSeconds(5)).until(() -> Files.exists(runtimeFile)
        && persisted().status() == ServiceStatus.UP);
  }

  @Test
  void aBlockRecordedByAnEarlierRunIsRetriedAtTheNextStart() throws Exception {
    new RuntimeStateStore().save(runtimeFile, new RuntimeStateStore.RuntimeFile(java.util.Map.of("scraper",
        new ServiceRuntime(ServiceStatus.BLOCKED, java.util.List.of(), null, 0,
            "corrupt state file " + stateFile + ": is not valid JSON")), null));
    ServiceSupervisor supervisor = supervisor(ReadsItsStateFile::new);

    onContext(supervisor::start);

    assertThat(supervisor.status()).isEqualTo(ServiceStatus.UP);
    assertThat(supervisor.state().reason()).isNull();
    assertThat(deploys).hasValue(1);
  }

  @Test
  void anOrdinaryDeployFailureStillSpendsBudgetAndItsReasonIsASentence() throws Exception {
    ServiceSupervisor supervisor = supervisor(() -> new VerticleBase() {
      @Override
      public Future<?> start() {
        deploys.incrementAndGet();
        return Future.failedFuture(new IllegalStateException("cannot open its database"));
      }
    });

    onContext(supervisor::start);
    await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.status() == ServiceStatus.REPAIR_REQUIRED);

    assertThat(deploys).hasValue(3);
    assertThat(supervisor.state().reason()).contains("deploy failed: cannot open its database")
        .doesNotContain("IllegalStateException");
  }
}
