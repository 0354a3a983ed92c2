package io.mangacircus.launcher.supervision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.LauncherStatus;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.RouterSlot;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.state.ServiceRuntime;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.TestServices;
import io.vertx.core.Deployable;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real launcher supervising a real service next to one that fails: redeploys, parks, the other goes on. */
class SupervisionIT {

  private static final String FAST = "{\"supervision\": {\"backoffInitialMs\": 100, \"backoffMultiplier\": 2.0,"
      + " \"backoffMaxMs\": 400, \"pingIntervalMs\": 300, \"pingTimeoutMs\": 150}, \"metrics\": {\"token\": \"t0ken-for-tests-01234567\"}}";

  @TempDir
  Path data;

  private final List<LauncherHarness> harnesses = new ArrayList<>();

  @AfterEach
  void close() {
    harnesses.forEach(LauncherHarness::close);
  }

  private LauncherHarness harness() {
    LauncherHarness harness = new LauncherHarness(data, FAST);
    harnesses.add(harness);
    return harness;
  }

  /** A launcher with the real reader and {@code scraper} standing in for the scraper; counts its deploys. */
  private LauncherHarness realReaderAnd(Supplier<Deployable> scraper, AtomicInteger deploys) {
    LauncherHarness h = harness();
    RouterSlot slot = new RouterSlot();
    return h.start(slot, h.realReader(slot), h.spec("scraper", () -> {
      deploys.incrementAndGet();
      return scraper.get();
    }));
  }

  private ServiceRuntime persisted(LauncherHarness h, String service) {
    Path file = new io.mangacircus.launcher.DataLayout(h.config().dataPath()).runtimeFile(service);
    return new RuntimeStateStore().load(file).orElseThrow().services().get(service);
  }

  @Test
  void serviceThatThrowsFromATimerIsRedeployedThenParkedWhileTheReaderKeepsAnswering() {
    AtomicInteger deploys = new AtomicInteger();
    LauncherHarness h = realReaderAnd(() -> new TestServices.ThrowsFromTimer("scraper", 250), deploys);

    // The supervisor is also DOWN while the scraper restarts: wait for it to say parked, in one answer.
    await().atMost(Duration.ofSeconds(20)).until(() -> {
      Answer answer = HttpProbe.get(h.port(), "/health/ready");
      return answer.status() == 503 && "DOWN".equals(answer.check("supervisor"))
          && answer.checkData("supervisor").containsKey("parked");
    });

    assertThat(deploys).hasValue(3);
    // Health shows the park at once; the runtime file is written after it, on a worker.
    await().atMost(Duration.ofSeconds(10))
        .until(() -> persisted(h, "scraper").status() == ServiceStatus.REPAIR_REQUIRED);
    Answer ready = HttpProbe.get(h.port(), "/health/ready");
    assertThat(ready.check("scraper")).isEqualTo("DOWN");
    assertThat(ready.check("reader")).isEqualTo("UP");
    JsonObject supervisor = ready.checkData("supervisor");
    assertThat(supervisor.getString("reason")).contains("repair-required", "scraper");
    assertThat(supervisor.getJsonObject("parked").getString("scraper"))
        .contains("crash budget spent", "3 failures", "blew up in a timer");

    ServiceRuntime scraper = persisted(h, "scraper");
    assertThat(scraper.status()).isEqualTo(ServiceStatus.REPAIR_REQUIRED);
    assertThat(scraper.failures()).hasSize(3);
    assertThat(scraper.restarts()).isEqualTo(2);
    assertThat(scraper.parkedAt()).isNotNull();

    // The other service and the launcher go on.
    assertThat(HttpProbe.get(h.port(), "/").status()).as("the reader still serves its pages").isEqualTo(200);
    assertThat(HttpProbe.get(h.port(), "/health/live").status()).isEqualTo(200);
    PingReply reader = PingReply.fromJson(LauncherHarness.await(h.vertx().eventBus().request(Addresses.READER_PING,
        new PingRequest("test").toJson(), new DeliveryOptions().setSendTimeout(2000))).body());
    assertThat(reader.service()).isEqualTo("reader");

    // Parked means parked: no fourth deploy, however long we look.
    String metrics = HttpProbe.get(h.port(), "/metrics", "t0ken-for-tests-01234567").body();
    assertThat(metrics).contains("mc_supervisor_parked{service=\"scraper\"} 1.0")
        .contains("mc_supervisor_parked{service=\"reader\"} 0.0")
        .contains("mc_supervisor_restarts_total{service=\"scraper\"} 2.0")
        .contains("mc_service_up{service=\"reader\"} 1.0")
        .contains("mc_service_up{service=\"scraper\"} 0.0");
    assertThat(deploys).hasValue(3);
  }

  @Test
  void everyStatusChangeIsPublishedOnTheBus() {
    LauncherHarness h = harness();
    List<LauncherStatus> published = new CopyOnWriteArrayList<>();
    h.vertx().eventBus().consumer(Addresses.LAUNCHER_STATUS, m -> published.add(LauncherStatus.fromJson(m.body())));
    RouterSlot slot = new RouterSlot();
    h.start(slot, h.realReader(slot), h.spec("scraper", () -> new TestServices.ThrowsFromTimer("scraper", 150)));

    await().atMost(Duration.ofSeconds(20)).until(() -> published.stream()
        .anyMatch(s -> statusOf(s, "scraper") == ServiceStatus.REPAIR_REQUIRED));

    List<ServiceStatus> scraperStatuses = published.stream().map(s -> statusOf(s, "scraper")).distinct().toList();
    assertThat(scraperStatuses).containsSubsequence(ServiceStatus.STARTING, ServiceStatus.UP, ServiceStatus.RESTARTING,
        ServiceStatus.REPAIR_REQUIRED);
    assertThat(published.get(published.size() - 1).node()).startsWith("all@");
  }

  private static ServiceStatus statusOf(LauncherStatus status, String service) {
    return status.services().stream().filter(s -> s.service().equals(service)).findFirst().orElseThrow().status();
  }

  @Test
  void parkedReaderLeavesHealthAnswerableOnTheReaderPortAndPagesSayWhy() {
    LauncherHarness h = harness();
    h.start(new RouterSlot(), h.spec("reader", () -> new TestServices.ThrowsFromTimer("reader", 200)), h.realScraper());

    await().atMost(Duration.ofSeconds(20))
        .until(() -> "DOWN".equals(HttpProbe.get(h.port(), "/health/ready").check("supervisor")));

    Answer ready = HttpProbe.get(h.port(), "/health/ready");
    assertThat(ready.status()).isEqualTo(503);
    assertThat(ready.check("scraper")).isEqualTo("UP");
    Answer page = HttpProbe.get(h.port(), "/");
    assertThat(page.status()).isEqualTo(503);
    assertThat(page.json().getString("message")).contains("repair-required");
  }

  @Test
  void serviceWhoseDeployFailsIsParkedAfterThreeAttempts() {
    AtomicInteger attempts = new AtomicInteger();
    LauncherHarness h = realReaderAnd(TestServices.FailsToDeploy::new, attempts);

    await().atMost(Duration.ofSeconds(20))
        .until(() -> persisted(h, "scraper").status() == ServiceStatus.REPAIR_REQUIRED);

    assertThat(attempts).hasValue(3);
    assertThat(persisted(h, "scraper").reason()).contains("deploy failed", "cannot open its database");
  }

  @Test
  void serviceThatStopsAnsweringPingsIsRedeployedAfterThreeMisses() {
    AtomicInteger deploys = new AtomicInteger();
    LauncherHarness h = realReaderAnd(() -> new TestServices.NeverAnswers("scraper"), deploys);

    await().atMost(Duration.ofSeconds(20)).until(() -> deploys.get() >= 2);
    await().atMost(Duration.ofSeconds(10)).until(() -> !persisted(h, "scraper").failures().isEmpty());

    ServiceRuntime scraper = persisted(h, "scraper");
    assertThat(scraper.failures()).isNotEmpty();
    assertThat(scraper.reason()).contains("3 liveness pings failed in a row");
  }

  @Test
  void aRestartedLauncherKeepsAServiceParkedWhileItsBudgetIsSpent() {
    LauncherHarness first = realReaderAnd(() -> new TestServices.ThrowsFromTimer("scraper", 100), new AtomicInteger());
    await().atMost(Duration.ofSeconds(20))
        .until(() -> persisted(first, "scraper").status() == ServiceStatus.REPAIR_REQUIRED);
    first.stopLauncher();

    AtomicInteger deploysAfterRestart = new AtomicInteger();
    LauncherHarness second = realReaderAnd(() -> new TestServices.ThrowsFromTimer("scraper", 100), deploysAfterRestart);

    Answer ready = HttpProbe.get(second.port(), "/health/ready");
    assertThat(ready.status()).isEqualTo(503);
    assertThat(ready.checkData("supervisor").getJsonObject("parked").getString("scraper")).contains("crash budget spent");
    assertThat(ready.check("reader")).isEqualTo("UP");
    assertThat(deploysAfterRestart).hasValue(0);
    assertThat(persisted(second, "scraper").failures()).hasSize(3);
  }
}
