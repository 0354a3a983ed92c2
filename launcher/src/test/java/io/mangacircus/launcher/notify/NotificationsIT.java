package io.mangacircus.launcher.notify;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.DiscoveryFinished;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.LauncherStatus;
import io.mangacircus.contracts.MemoryYieldChanged;
import io.mangacircus.contracts.ServiceState;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.RouterSlot;
import io.mangacircus.launcher.logging.RedactingAppender;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.launcher.testing.TestServices;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.Deployable;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A real launcher with notifications configured, WireMock standing in for ntfy, Gotify, a webhook and a heartbeat
 * monitor: the requests they receive are the documented ones, and delivery holds under failures.
 */
class NotificationsIT {

  @TempDir
  Path data;

  private final WireMockServer wm = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private LauncherHarness harness;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private RedactingAppender redacting;

  @BeforeEach
  void startWireMock() {
    wm.start();
    wm.stubFor(any(anyUrl()).willReturn(ok()));
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    redacting = (RedactingAppender) context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("REDACT");
    logs.setContext(context);
    logs.start();
    redacting.addAppender(logs);
  }

  /** Waits until the notifier has subscribed (it is deployed once the services are up). */
  private void awaitNotifier() {
    await().atMost(Duration.ofSeconds(30)).until(() -> List.copyOf(logs.list).stream()
        .anyMatch(e -> e.getFormattedMessage().startsWith("[NOTIFY] notifications to")));
  }

  @AfterEach
  void stop() {
    redacting.detachAppender(logs);
    if (harness != null) {
      harness.close();
    }
    wm.stop();
  }

  private String base() {
    return "http://127.0.0.1:" + wm.port();
  }

  private JsonObject ntfy(String name) {
    return new JsonObject().put("name", name).put("type", "ntfy").put("url", base() + "/ntfy").put("topic",
        "mc-alerts").put("token", "tk_ntfy_secret");
  }

  private JsonObject gotify() {
    return new JsonObject().put("name", "desk").put("type", "gotify").put("url", base() + "/gotify")
        .put("token", "AppToken.1");
  }

  private JsonObject webhook() {
    return new JsonObject().put("name", "hook").put("type", "webhook").put("url", base() + "/hook/key-123");
  }

  private static JsonObject notifications(JsonArray destinations) {
    return new JsonObject().put("publicUrl", "https://manga.example.org").put("destinations", destinations)
        .put("retry", new JsonObject().put("initialSeconds", 1).put("multiplier", 1.0).put("maxSeconds", 1)
            .put("maxAttempts", 20))
        // Long enough that a loaded machine's first WireMock answer is not taken for a hanging destination.
        .put("requestTimeoutSeconds", 5);
  }

  /** Both services as stand-ins that answer their pings; the scraper one as given. */
  private LauncherHarness start(JsonObject notifications, java.util.function.Supplier<Deployable> scraper,
      JsonObject extra) {
    JsonObject config = new JsonObject().put("notifications", notifications).put("metrics",
        new JsonObject().put("token", "metrics-token-0123456789")).mergeIn(extra, true);
    harness = new LauncherHarness(data, config.encode());
    harness.start(new RouterSlot(), harness.spec("reader", () -> new TestServices.ThrowsFromTimer("reader",
        3_600_000)), harness.spec("scraper", scraper));
    return harness;
  }

  private List<LoggedRequest> posts(String pathRegex) {
    return wm.findAll(postRequestedFor(urlPathMatching(pathRegex)));
  }

  @Test
  void eachEventKindProducesExactlyTheDocumentedRequestAtEachDestination() {
    start(notifications(new JsonArray().add(ntfy("phone")).add(gotify()).add(webhook())),
        () -> new TestServices.ThrowsFromTimer("scraper", 3_600_000), new JsonObject());
    EventBus bus = harness.vertx().eventBus();
    awaitNotifier();
    Instant now = Instant.now();

    bus.publish(Addresses.SCRAPER_INCIDENT_RECORDED, new JsonObject().put("v", 1).put("id", "i1")
        .put("at", now.toString()).put("kind", "http").put("source", "demo").put("jobId", "j1").put("httpStatus", 503)
        .put("message", "page 3 answered 503").put("action", "retry_wait"));
    awaitCount("/ntfy/mc-alerts", 1);
    LoggedRequest incident = posts("/ntfy/mc-alerts").get(0);
    assertThat(incident.getHeader("Title")).isEqualTo("MangaCircus incident: http on demo");
    assertThat(incident.getHeader("Priority")).isEqualTo("4");
    assertThat(incident.getHeader("Tags")).isEqualTo("warning");
    assertThat(incident.getHeader("Click")).isEqualTo("https://manga.example.org/admin/scraper.html");
    assertThat(incident.getHeader("Authorization")).isEqualTo("Bearer tk_ntfy_secret");
    assertThat(incident.getBodyAsString()).contains("page 3 answered 503", "What MangaCircus did: retry_wait");
    awaitCount("/gotify/message", 1);
    LoggedRequest gotify = posts("/gotify/message").get(0);
    assertThat(gotify.queryParameter("token").firstValue()).isEqualTo("AppToken.1");
    JsonObject gotifyBody = new JsonObject(gotify.getBodyAsString());
    assertThat(gotifyBody.getString("title")).isEqualTo("MangaCircus incident: http on demo");
    assertThat(gotifyBody.getInteger("priority")).isEqualTo(7);
    assertThat(gotifyBody.getString("message")).contains("page 3 answered 503");
    awaitCount("/hook/key-123", 1);
    JsonObject hook = new JsonObject(posts("/hook/key-123").get(0).getBodyAsString());
    assertThat(hook.getString("kind")).isEqualTo("incident");
    assertThat(hook.getString("key")).isEqualTo("incident:http:demo:j1");
    assertThat(hook.getInteger("v")).isEqualTo(1);

    bus.publish(Addresses.SCRAPER_CIRCUIT_STATE, new JsonObject().put("v", 1).put("source", "demo").put("state",
        "open"));
    awaitTitle("MangaCircus: circuit open for demo");
    bus.publish(Addresses.SCRAPER_CIRCUIT_STATE, new JsonObject().put("v", 1).put("source", "demo").put("state",
        "closed"));
    awaitTitle("MangaCircus: circuit closed for demo");
    bus.publish(Addresses.SCRAPER_JOB_PROGRESS, new JobProgress("j7", "demo", "Circus Nights", "quarantined", null,
        null, 0, 0, 1, 3).toJson());
    awaitTitle("MangaCircus: job quarantined: Circus Nights (demo)");
    bus.publish(Addresses.LAUNCHER_STATUS, new LauncherStatus("scraper@elsewhere:9", List.of(new ServiceState(
        "scraper", ServiceStatus.REPAIR_REQUIRED, 3, 3, now.toString(), "crashed: boom"))).toJson());
    awaitTitle("MangaCircus: scraper parked, repair required");
    bus.publish(Addresses.LAUNCHER_STATUS, new LauncherStatus("scraper@other:10", List.of(new ServiceState(
        "scraper", ServiceStatus.BLOCKED, 0, 0, null, "corrupt state file data/scraper/queue.json: not JSON")))
        .toJson());
    awaitTitle("MangaCircus: scraper blocked by a corrupt state file");
    bus.publish(Addresses.LAUNCHER_MEMORY_YIELD, new MemoryYieldChanged("all@h:1", true, "memory 95% used").toJson());
    awaitTitle("MangaCircus: downloads paused for memory");
    bus.publish(Addresses.LAUNCHER_MEMORY_YIELD, new MemoryYieldChanged("all@h:1", false, "memory 50% used")
        .toJson());
    awaitTitle("MangaCircus: downloads resumed");
    bus.publish(Addresses.SCRAPER_DISCOVERY_FINISHED, new DiscoveryFinished(now, 1, List.of(
        new DiscoveryFinished.Queued("j9", "demo", "circus-nights")), 0).toJson());
    bus.publish(Addresses.LIBRARY_PUBLISHED, published("chapter-0004", "c4", now.plusSeconds(1)));
    bus.publish(Addresses.LIBRARY_PUBLISHED, published("chapter-0005", "c5", now.plusSeconds(2)));
    bus.publish(Addresses.SCRAPER_JOB_PROGRESS, new JobProgress("j9", "demo", "Circus Nights", "done", null, null, 0,
        0, 5, 5).toJson());
    awaitTitle("MangaCircus: 2 new chapters after discovery");
    assertThat(webhookBody("MangaCircus: 2 new chapters after discovery").getString("message"))
        .startsWith("2 new chapters of Circus Nights");

    // Exactly one request per event and destination: nine events, nine messages each, nothing more.
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() ->
        posts("/ntfy/mc-alerts").size() == 9 && posts("/gotify/message").size() == 9
            && posts("/hook/key-123").size() == 9);
  }

  private static JsonObject published(String folder, String chapterId, Instant at) {
    return published("circus-nights", "Circus Nights", folder, chapterId, at);
  }

  private static JsonObject published(String seriesId, String title, String folder, String chapterId, Instant at) {
    JsonObject manifest = new JsonObject().put("schema", 1).put("source", "demo").put("titleId", seriesId)
        .put("series", title).put("chapterId", chapterId).put("number", chapterId.substring(1))
        .put("title", "").put("language", "en").put("fingerprint", "f-" + chapterId).put("publishedAt", at.toString())
        .put("pages", new JsonArray().add(new JsonObject().put("file", "001.jpg").put("sha256",
            "0".repeat(64)).put("bytes", 10).put("width", 1).put("height", 1)));
    return new JsonObject().put("v", 2).put("instance", "x").put("seq", 1).put("seriesId", seriesId)
        .put("path", seriesId + "/" + folder).put("manifest", manifest);
  }

  private void awaitCount(String path, int n) {
    await().atMost(Duration.ofSeconds(15)).until(() -> posts(path).size() >= n);
  }

  private void awaitTitle(String title) {
    await().atMost(Duration.ofSeconds(15)).until(() -> posts("/ntfy/mc-alerts").stream()
        .anyMatch(r -> title.equals(r.getHeader("Title"))));
    await().atMost(Duration.ofSeconds(15)).until(() -> posts("/gotify/message").stream()
        .anyMatch(r -> title.equals(new JsonObject(r.getBodyAsString()).getString("title"))));
    await().atMost(Duration.ofSeconds(15)).until(() -> webhookBody(title) != null);
  }

  private JsonObject webhookBody(String title) {
    return posts("/hook/key-123").stream().map(r -> new JsonObject(r.getBodyAsString()))
        .filter(j -> title.equals(j.getString("title"))).findFirst().orElse(null);
  }

  @Test
  void aFailingDestinationIsRetriedUntilItAnswersAndAHangingOneNeverHoldsUpTheOthers() {
    wm.stubFor(post(urlPathEqualTo("/ntfy/mc-alerts")).inScenario("flaky").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(aResponse().withStatus(500)).willSetStateTo("failed once"));
    wm.stubFor(post(urlPathEqualTo("/ntfy/mc-alerts")).inScenario("flaky").whenScenarioStateIs("failed once")
        .willReturn(aResponse().withStatus(500)).willSetStateTo("recovered"));
    wm.stubFor(post(urlPathEqualTo("/ntfy/mc-alerts")).inScenario("flaky").whenScenarioStateIs("recovered")
        .willReturn(ok()));
    wm.stubFor(post(urlPathMatching("/hook/.*")).willReturn(ok().withFixedDelay(30_000)));
    start(notifications(new JsonArray().add(ntfy("phone")).add(gotify()).add(webhook())),
        () -> new TestServices.ThrowsFromTimer("scraper", 3_600_000), new JsonObject());
    awaitNotifier();

    long before = System.nanoTime();
    harness.vertx().eventBus().publish(Addresses.SCRAPER_INCIDENT_RECORDED, new JsonObject().put("v", 1)
        .put("kind", "http").put("source", "demo").put("jobId", "j1").put("message", "503").put("action", "retry"));
    awaitCount("/gotify/message", 1);
    assertThat(Duration.ofNanos(System.nanoTime() - before))
        .as("the hanging webhook does not hold up Gotify").isLessThan(Duration.ofSeconds(5));
    await().atMost(Duration.ofSeconds(20)).until(() -> posts("/ntfy/mc-alerts").size() == 3);
    await().atMost(Duration.ofSeconds(40)).until(() -> posts("/hook/key-123").size() >= 2);
    assertThat(posts("/gotify/message")).as("delivered once, not again").hasSize(1);
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() ->
        posts("/ntfy/mc-alerts").size() == 3);
    // The hanging webhook's delivery is still waiting in the outbox; the delivered ones are gone from it.
    JsonArray waiting = outbox();
    assertThat(waiting).hasSize(1);
    assertThat(waiting.getJsonObject(0).getString("destination")).isEqualTo("hook");
  }

  private JsonArray outbox() {
    try {
      return new JsonObject(Files.readString(data.resolve("notifications/outbox.json"))).getJsonArray("deliveries");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void repeatsWithinTheWindowAreOneMessageAndTheRateLimitHolds() {
    JsonObject limited = webhook().put("maxPerHour", 2);
    JsonObject config = notifications(new JsonArray().add(ntfy("phone").put("events", new JsonArray().add("incident")))
        .add(limited));
    start(config, () -> new TestServices.ThrowsFromTimer("scraper", 3_600_000), new JsonObject());
    awaitNotifier();
    EventBus bus = harness.vertx().eventBus();
    for (int i = 0; i < 5; i++) {
      bus.publish(Addresses.SCRAPER_INCIDENT_RECORDED, new JsonObject().put("v", 1).put("kind", "http")
          .put("source", "demo").put("jobId", "same").put("message", "503 #" + i).put("action", "retry"));
    }
    for (int i = 0; i < 3; i++) {
      bus.publish(Addresses.SCRAPER_INCIDENT_RECORDED, new JsonObject().put("v", 1).put("kind", "http")
          .put("source", "demo").put("jobId", "other-" + i).put("message", "503").put("action", "retry"));
    }
    await().atMost(Duration.ofSeconds(15)).until(() -> posts("/ntfy/mc-alerts").size() == 4);
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() ->
        posts("/ntfy/mc-alerts").size() == 4 && posts("/hook/key-123").size() == 2);
    assertThat(posts("/ntfy/mc-alerts").stream().filter(r -> r.getBodyAsString().startsWith("503 #")))
        .as("five repeats of one key: one message").hasSize(1);
    // The webhook's other two messages wait in the outbox for a free slot of its hourly limit.
    assertThat(outbox()).hasSize(2).allMatch(d -> "hook".equals(((JsonObject) d).getString("destination")));
  }

  @Test
  void aFullOutboxDropsTheOldestAndCountsThemInTheMetrics() {
    wm.stubFor(post(urlPathMatching("/gotify/.*")).willReturn(aResponse().withStatus(503)));
    start(notifications(new JsonArray().add(gotify())).put("outboxMax", 2),
        () -> new TestServices.ThrowsFromTimer("scraper", 3_600_000), new JsonObject());
    awaitNotifier();
    for (int i = 0; i < 4; i++) {
      harness.vertx().eventBus().publish(Addresses.SCRAPER_INCIDENT_RECORDED, new JsonObject().put("v", 1)
          .put("kind", "http").put("source", "demo").put("jobId", "job-" + i).put("message", "503").put("action", "retry"));
    }
    await().atMost(Duration.ofSeconds(15)).until(() -> HttpProbe.get(harness.port(), "/metrics", "metrics-token-0123456789").body()
        .contains("mc_notifications_dropped_total 2.0"));
    await().atMost(Duration.ofSeconds(15)).until(() -> outbox().stream().map(d -> ((JsonObject) d)
        .getJsonObject("notification").getString("key")).toList()
        .equals(List.of("incident:http:demo:job-2", "incident:http:demo:job-3")));
  }

  @Test
  void withNotificationsOffThisProcessSendsNoEventNorHeartbeatYetChecksItsReadersAlertTargets() {
    JsonObject config = notifications(new JsonArray().add(ntfy("phone"))).put("enabled", false)
        .put("readerAlertAllowedHosts", new JsonArray().add("127.0.0.1"))
        .put("heartbeat", new JsonObject().put("url", base() + "/ping/uuid-2").put("intervalSeconds", 1));
    start(config, () -> new TestServices.ThrowsFromTimer("scraper", 3_600_000), new JsonObject());
    await().atMost(Duration.ofSeconds(30)).until(() -> List.copyOf(logs.list).stream()
        .anyMatch(e -> e.getFormattedMessage().startsWith("[NOTIFY] notifications.enabled is false")));
    EventBus bus = harness.vertx().eventBus();

    assertThat(bus.request(Addresses.LAUNCHER_NOTIFICATIONS_CHECK_TARGET, new JsonObject().put("v", 1)
        .put("url", base() + "/ntfy/reader-topic")).await().body()).as("readers' alert targets still checked here")
        .isEqualTo(new JsonObject().put("v", 1));
    bus.publish(Addresses.SCRAPER_INCIDENT_RECORDED, new JsonObject().put("v", 1).put("id", "i1")
        .put("at", Instant.now().toString()).put("kind", "http").put("source", "demo").put("jobId", "j1")
        .put("httpStatus", 503).put("message", "page 3 answered 503").put("action", "retry_wait"));

    // The process that sends would have within a second (the heartbeat's interval, and the first send of an event).
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> wm.getAllServeEvents().isEmpty());
  }

  @Test
  void theHeartbeatGoesOutWhileReadyAndStopsWithinOneIntervalWhenTheScraperIsParked() {
    AtomicInteger deploys = new AtomicInteger();
    JsonObject config = notifications(new JsonArray().add(ntfy("phone"))).put("heartbeat", new JsonObject()
        .put("url", base() + "/ping/uuid-1").put("intervalSeconds", 1));
    start(config, () -> deploys.incrementAndGet() == 1 ? new TestServices.ThrowsFromTimer("scraper", 4_000)
        : new TestServices.FailsToDeploy(), new JsonObject().put("supervision", new JsonObject()
        .put("crashBudgetFailures", 1)));
    await().atMost(Duration.ofSeconds(20)).until(() -> wm.findAll(getRequestedFor(urlPathEqualTo("/ping/uuid-1")))
        .size() >= 2);
    await().atMost(Duration.ofSeconds(20)).until(() -> HttpProbe.get(harness.port(), "/health/ready").status() == 503);
    Instant parked = Instant.now();
    awaitTitle0("MangaCircus: scraper parked, repair required");
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() ->
        HttpProbe.get(harness.port(), "/health/ready").status() == 503);
    List<Instant> pings = wm.findAll(getRequestedFor(urlPathEqualTo("/ping/uuid-1"))).stream()
        .map(r -> r.getLoggedDate().toInstant()).toList();
    assertThat(pings).as("no ping more than one interval after the scraper was parked")
        .allMatch(at -> at.isBefore(parked.plusSeconds(1)));
    LoggedRequest parkedMessage = posts("/ntfy/mc-alerts").stream()
        .filter(r -> r.getHeader("Title").contains("parked")).findFirst().orElseThrow();
    assertThat(parkedMessage.getHeader("Priority")).isEqualTo("5");
    assertThat(parkedMessage.getHeader("Click")).isEqualTo("https://manga.example.org/admin/health.html");
  }

  private void awaitTitle0(String title) {
    await().atMost(Duration.ofSeconds(15)).until(() -> posts("/ntfy/mc-alerts").stream()
        .anyMatch(r -> title.equals(r.getHeader("Title"))));
  }

  @Test
  void aCorruptQueueFileBlocksTheScraperAndTheOperatorIsToldWhichFile() throws Exception {
    Files.createDirectories(data.resolve("scraper"));
    Files.writeString(data.resolve("scraper/queue.json"), "{ not json");
    JsonObject config = notifications(new JsonArray().add(webhook()));
    harness = new LauncherHarness(data, new JsonObject().put("notifications", config).encode());
    harness.start(new RouterSlot(), harness.spec("reader", () -> new TestServices.ThrowsFromTimer("reader",
        3_600_000)), harness.realScraper());
    await().atMost(Duration.ofSeconds(30)).until(() -> webhookBody("MangaCircus: scraper blocked by a corrupt state "
        + "file") != null);
    JsonObject body = webhookBody("MangaCircus: scraper blocked by a corrupt state file");
    assertThat(body.getString("kind")).isEqualTo("corrupt-state");
    assertThat(body.getString("message")).contains("queue.json", "What to do");
    assertThat(Files.readString(data.resolve("scraper/queue.json"))).isEqualTo("{ not json");
  }

  @Test
  void theSettingsRoutesShowSecretsOnlyAsSetAndTheTestButtonReachesEveryDestinationAndTheHeartbeat() {
    wm.stubFor(post(urlPathMatching("/gotify/.*")).willReturn(aResponse().withStatus(401)));
    JsonObject config = new JsonObject().put("reader", new JsonObject().put("adminToken", "admin-token-0123456789ab"))
        .put("notifications", notifications(new JsonArray().add(ntfy("phone")).add(gotify()).add(webhook()))
            .put("heartbeat", new JsonObject().put("url", base() + "/ping/uuid-secret").put("intervalSeconds", 3600)));
    harness = new LauncherHarness(data, config.encode());
    RouterSlot slot = new RouterSlot();
    harness.start(slot, harness.realReader(slot), harness.spec("scraper", () -> new TestServices.ThrowsFromTimer(
        "scraper", 3_600_000)));
    awaitNotifier();
    AdminApi admin = new AdminApi(harness.port(), "admin-token-0123456789ab");

    HttpProbe.Answer view = admin.get("/api/admin/notifications");
    assertThat(view.status()).isEqualTo(200);
    assertThat(view.body()).doesNotContain("tk_ntfy_secret", "AppToken.1", "key-123", "uuid-secret", "mc-alerts",
        String.valueOf(wm.port()));
    JsonObject settings = view.json();
    assertThat(settings.getBoolean("configured")).isTrue();
    JsonObject phone = settings.getJsonArray("destinations").getJsonObject(0);
    assertThat(phone.getString("url")).isEqualTo("set");
    assertThat(phone.getString("topic")).isEqualTo("set");
    assertThat(phone.getString("token")).isEqualTo("set");
    assertThat(settings.getJsonArray("destinations").getJsonObject(2).getString("token")).isEqualTo("none");
    assertThat(settings.getJsonObject("heartbeat").getString("url")).isEqualTo("set");

    // The heartbeat of the start-up tick has gone out (interval 1 h): the test adds exactly one more.
    await().atMost(Duration.ofSeconds(15)).until(() -> wm.findAll(getRequestedFor(urlPathEqualTo("/ping/uuid-secret")))
        .size() == 1);
    HttpProbe.Answer test = admin.post("/api/admin/notifications/test", new JsonObject());
    assertThat(test.status()).isEqualTo(200);
    JsonArray answers = test.json().getJsonArray("destinations");
    assertThat(answers.stream().map(a -> ((JsonObject) a).getString("name") + " " + ((JsonObject) a).getBoolean("ok")
        + " " + ((JsonObject) a).getString("answer"))).containsExactly("phone true HTTP 200", "desk false answered HTTP 401",
        "hook true HTTP 200");
    assertThat(test.json().getJsonObject("heartbeat").getString("answer")).isEqualTo("HTTP 200");
    assertThat(posts("/ntfy/mc-alerts")).singleElement()
        .satisfies(r -> assertThat(r.getHeader("Title")).isEqualTo("MangaCircus test message"));
    assertThat(wm.findAll(getRequestedFor(urlPathEqualTo("/ping/uuid-secret")))).hasSize(2);
    assertThat(test.body()).doesNotContain("AppToken.1", "uuid-secret", "key-123");
  }

  @Test
  void withNothingConfiguredTheSettingsSayNothingIsConfiguredAndTheTestIsRefused() {
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken",
        "admin-token-0123456789ab")).encode());
    RouterSlot slot = new RouterSlot();
    harness.start(slot, harness.realReader(slot), harness.spec("scraper", () -> new TestServices.ThrowsFromTimer(
        "scraper", 3_600_000)));
    AdminApi admin = new AdminApi(harness.port(), "admin-token-0123456789ab");
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.get("/api/admin/notifications").status() == 200);
    assertThat(admin.get("/api/admin/notifications").json().getBoolean("configured")).isFalse();
    HttpProbe.Answer test = admin.post("/api/admin/notifications/test", new JsonObject());
    assertThat(test.status()).isEqualTo(409);
    assertThat(test.json().getString("error")).isEqualTo("nothing_configured");
    assertThat(HttpProbe.get(harness.port(), "/api/admin/notifications").status()).as("admins only").isEqualTo(401);
  }

  @Test
  void destinationsAndTheHeartbeatSavedInSettingsApplyWithoutARestartKeepTheirSecretsAndSurviveOne() throws Exception {
    JsonObject config = new JsonObject().put("reader", new JsonObject().put("adminToken", "admin-token-0123456789ab"))
        .put("notifications", notifications(new JsonArray().add(ntfy("phone"))));
    harness = new LauncherHarness(data, config.encode());
    RouterSlot slot = new RouterSlot();
    harness.start(slot, harness.realReader(slot), harness.spec("scraper", () -> new TestServices.ThrowsFromTimer(
        "scraper", 3_600_000)));
    awaitNotifier();
    AdminApi admin = new AdminApi(harness.port(), "admin-token-0123456789ab");
    Path saved = data.resolve("notifications/destinations.json");

    HttpProbe.Answer added = admin.put("/api/admin/notifications/destinations/laptop", new JsonObject()
        .put("type", "webhook").put("url", base() + "/hook/saved-key").put("token", "saved-bearer")
        .put("events", new JsonArray().add("incident")));
    assertThat(added.status()).as(added.body()).isEqualTo(200);
    assertThat(added.body()).doesNotContain("saved-key", "saved-bearer", "mc-alerts", "tk_ntfy_secret");
    JsonObject laptop = added.json().getJsonArray("destinations").getJsonObject(1);
    assertThat(laptop.getString("name")).isEqualTo("laptop");
    assertThat(laptop.getString("origin")).isEqualTo("settings");
    assertThat(laptop.getString("token")).isEqualTo("set");
    assertThat(added.json().getJsonArray("destinations").getJsonObject(0).getString("origin")).isEqualTo("config");
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(saved)))
        .isEqualTo("rw-------");

    // Applied at once: the next incident reaches the new webhook with its bearer token.
    EventBus bus = harness.vertx().eventBus();
    bus.publish(Addresses.SCRAPER_INCIDENT_RECORDED, incident("i1", "j1"));
    awaitCount("/hook/saved-key", 1);
    assertThat(posts("/hook/saved-key").get(0).getHeader("Authorization")).isEqualTo("Bearer saved-bearer");

    // Refused values change nothing and say what is wrong.
    String before = Files.readString(saved);
    HttpProbe.Answer badUrl = admin.put("/api/admin/notifications/destinations/laptop", new JsonObject()
        .put("type", "webhook").put("url", "hooks.example.org/x"));
    assertThat(badUrl.status()).isEqualTo(400);
    assertThat(badUrl.json().getString("error")).isEqualTo("bad_request");
    assertThat(badUrl.json().getString("message")).isEqualTo("url must be an http(s) address");
    HttpProbe.Answer badKind = admin.put("/api/admin/notifications/destinations/laptop", new JsonObject()
        .put("events", new JsonArray().add("lunch")));
    assertThat(badKind.status()).isEqualTo(400);
    assertThat(badKind.json().getString("message")).startsWith("events: \"lunch\" is not an event kind");
    HttpProbe.Answer noTopic = admin.put("/api/admin/notifications/destinations/tablet", new JsonObject()
        .put("type", "ntfy").put("url", base() + "/ntfy"));
    assertThat(noTopic.status()).isEqualTo(400);
    assertThat(noTopic.json().getString("message")).isEqualTo("topic is missing: an ntfy destination needs its topic");
    HttpProbe.Answer readOnly = admin.delete("/api/admin/notifications/destinations/phone");
    assertThat(readOnly.status()).isEqualTo(409);
    assertThat(readOnly.json().getString("error")).isEqualTo("read_only");
    assertThat(Files.readString(saved)).isEqualTo(before);

    // An edit that leaves the secrets blank keeps them; the heartbeat starts without a restart.
    HttpProbe.Answer edited = admin.put("/api/admin/notifications/destinations/laptop", new JsonObject()
        .put("type", "webhook").put("url", "").put("token", "").put("events", new JsonArray().add("circuit")));
    assertThat(edited.status()).as(edited.body()).isEqualTo(200);
    bus.publish(Addresses.SCRAPER_CIRCUIT_STATE, new JsonObject().put("v", 1).put("source", "demo").put("state",
        "open"));
    awaitCount("/hook/saved-key", 2);
    assertThat(posts("/hook/saved-key").get(1).getHeader("Authorization")).isEqualTo("Bearer saved-bearer");
    HttpProbe.Answer beat = admin.put("/api/admin/notifications/heartbeat", new JsonObject()
        .put("url", base() + "/ping/saved-uuid").put("intervalSeconds", 3600));
    assertThat(beat.status()).as(beat.body()).isEqualTo(200);
    assertThat(beat.json().getJsonObject("heartbeat").getString("url")).isEqualTo("set");
    await().atMost(Duration.ofSeconds(15)).until(() -> wm.findAll(getRequestedFor(urlPathEqualTo(
        "/ping/saved-uuid"))).size() == 1);

    // After a restart the saved destination is still there.
    harness.close();
    harness = new LauncherHarness(data, config.encode());
    RouterSlot again = new RouterSlot();
    harness.start(again, harness.realReader(again), harness.spec("scraper", () -> new TestServices.ThrowsFromTimer(
        "scraper", 3_600_000)));
    await().atMost(Duration.ofSeconds(30)).until(() -> List.copyOf(logs.list).stream()
        .filter(e -> e.getFormattedMessage().startsWith("[NOTIFY] notifications to 2 destination(s)")).count() == 1);
    AdminApi restarted = new AdminApi(harness.port(), "admin-token-0123456789ab");
    await().atMost(Duration.ofSeconds(15)).until(() -> restarted.get("/api/admin/notifications").status() == 200);
    assertThat(restarted.get("/api/admin/notifications").json().getJsonArray("destinations").stream()
        .map(d -> ((JsonObject) d).getString("name"))).containsExactly("phone", "laptop");
    harness.vertx().eventBus().publish(Addresses.SCRAPER_CIRCUIT_STATE, new JsonObject().put("v", 1)
        .put("source", "other").put("state", "open"));
    awaitCount("/hook/saved-key", 3);

    // Removed: nothing more goes there.
    assertThat(restarted.delete("/api/admin/notifications/destinations/laptop").status()).isEqualTo(200);
    assertThat(restarted.delete("/api/admin/notifications/heartbeat").status()).isEqualTo(200);
    harness.vertx().eventBus().publish(Addresses.SCRAPER_CIRCUIT_STATE, new JsonObject().put("v", 1)
        .put("source", "third").put("state", "open"));
    awaitTitle0("MangaCircus: circuit open for third");
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> posts("/hook/saved-key").size()
        == 3);
    assertThat(Files.readString(saved)).doesNotContain("saved-key", "saved-uuid");
    assertThat(List.copyOf(logs.list).stream().map(ILoggingEvent::getFormattedMessage))
        .noneMatch(line -> line.contains("saved-key") || line.contains("saved-bearer") || line.contains("saved-uuid"));
  }

  @Test
  void aCorruptSavedSettingsFileIsReportedOnThePageNeverOverwrittenAndTheConfigFileDestinationsStillWork()
      throws Exception {
    Path saved = Files.createDirectories(data.resolve("notifications")).resolve("destinations.json");
    Files.writeString(saved, "{\"schema\": 1, \"destinations\": [");
    JsonObject config = new JsonObject().put("reader", new JsonObject().put("adminToken", "admin-token-0123456789ab"))
        .put("notifications", notifications(new JsonArray().add(webhook())));
    harness = new LauncherHarness(data, config.encode());
    RouterSlot slot = new RouterSlot();
    harness.start(slot, harness.realReader(slot), harness.spec("scraper", () -> new TestServices.ThrowsFromTimer(
        "scraper", 3_600_000)));
    awaitNotifier();
    AdminApi admin = new AdminApi(harness.port(), "admin-token-0123456789ab");
    await().atMost(Duration.ofSeconds(15)).until(() -> admin.get("/api/admin/notifications").status() == 200);
    assertThat(admin.get("/api/admin/notifications").json().getString("settingsProblem"))
        .contains(saved.toString(), "not valid JSON", "left untouched");
    assertThat(List.copyOf(logs.list).stream().map(ILoggingEvent::getFormattedMessage))
        .anyMatch(line -> line.contains("[NOTIFY]") && line.contains(saved.toString()));

    HttpProbe.Answer refused = admin.put("/api/admin/notifications/destinations/laptop", new JsonObject()
        .put("type", "webhook").put("url", base() + "/hook/other"));
    assertThat(refused.status()).isEqualTo(500);
    assertThat(refused.json().getString("error")).isEqualTo("storage_error");
    assertThat(refused.json().getString("message")).contains(saved.toString(), "left untouched");
    assertThat(Files.readString(saved)).isEqualTo("{\"schema\": 1, \"destinations\": [");

    harness.vertx().eventBus().publish(Addresses.SCRAPER_INCIDENT_RECORDED, incident("i2", "j2"));
    awaitCount("/hook/key-123", 1);
  }

  private static JsonObject incident(String id, String job) {
    return new JsonObject().put("v", 1).put("id", id).put("at", Instant.now().toString()).put("kind", "http")
        .put("source", "demo").put("jobId", job).put("httpStatus", 503).put("message", "page 3 answered 503")
        .put("action", "retry_wait");
  }

  @Test
  void readersGetOneAlertPerSubscribedSeriesAtTheirOwnTopicOrWebhookAndNeverOtherUsersTitles() {
    // WireMock listens on the loopback address: readers may aim there only because the admin allows that host.
    JsonObject config = new JsonObject().put("reader", new JsonObject().put("adminToken", "admin-token-0123456789ab"))
        .put("notifications", notifications(new JsonArray()).put("readerAlertAllowedHosts",
            new JsonArray().add("127.0.0.1")));
    // Readers may subscribe only to series the library serves.
    LibraryFixture library = new LibraryFixture(data);
    library.chapter("circus-nights", "Circus Nights", 8, 1, Instant.parse("2026-11-20T10:00:00Z"));
    library.chapter("quiet-town", "Quiet Town", 8, 1, Instant.parse("2026-11-20T10:00:00Z"));
    harness = new LauncherHarness(data, config.encode());
    RouterSlot slot = new RouterSlot();
    harness.start(slot, harness.realReader(slot), harness.spec("scraper", () -> new TestServices.ThrowsFromTimer(
        "scraper", 3_600_000)));
    AdminApi admin = new AdminApi(harness.port(), "admin-token-0123456789ab");
    // Nothing of the operator's is configured (the notifier starts quietly); its answer says it listens.
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.get("/api/admin/notifications").status() == 200);
    for (String name : List.of("alice", "bob", "carol")) {
      assertThat(admin.post("/api/admin/users", new JsonObject().put("username", name)
          .put("password", name + "-password").put("role", "reader")).status()).isEqualTo(201);
    }
    ReaderSession alice = ReaderSession.login(harness.port(), "alice", "alice-password");
    ReaderSession bob = ReaderSession.login(harness.port(), "bob", "bob-password");
    ReaderSession carol = ReaderSession.login(harness.port(), "carol", "carol-password");

    HttpResponse<String> target = alice.put("/api/me/alerts/target", new JsonObject().put("type", "ntfy")
        .put("url", base() + "/ntfy").put("topic", "alice-topic").put("token", "tk_alice"));
    assertThat(target.statusCode()).as(target.body()).isEqualTo(200);
    assertThat(alice.put("/api/me/alerts/series/circus-nights", new JsonObject()).statusCode()).isEqualTo(200);
    assertThat(alice.put("/api/me/alerts/series/no-such-series", new JsonObject()).statusCode())
        .as("a series the library does not serve").isEqualTo(404);
    assertThat(alice.put("/api/me/alerts/series/quiet-town", new JsonObject()).statusCode()).isEqualTo(200);
    assertThat(bob.put("/api/me/alerts/target", new JsonObject().put("type", "webhook")
        .put("url", base() + "/hook/bob")).statusCode()).isEqualTo(200);
    assertThat(bob.put("/api/me/alerts/series/quiet-town", new JsonObject()).statusCode()).isEqualTo(200);
    // carol subscribes but never says where: she gets nothing, and nobody gets her series.
    assertThat(carol.put("/api/me/alerts/series/circus-nights", new JsonObject()).statusCode()).isEqualTo(200);
    HttpResponse<String> badTarget = carol.put("/api/me/alerts/target", new JsonObject().put("type", "ntfy")
        .put("url", base() + "/ntfy"));
    assertThat(badTarget.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(badTarget.body()).getString("message"))
        .isEqualTo("topic is missing: an ntfy alert needs its topic");
    // Internal addresses the admin did not allow are refused, literal or by name, and nothing is saved.
    for (String internal : List.of("http://169.254.169.254/latest/meta-data/", "http://localhost:" + wm.port()
        + "/hook", "http://[::1]:" + wm.port() + "/hook", "http://10.0.0.1/hook")) {
      HttpResponse<String> refused = carol.put("/api/me/alerts/target", new JsonObject().put("type", "webhook")
          .put("url", internal));
      assertThat(refused.statusCode()).as(internal + ": " + refused.body()).isEqualTo(400);
      assertThat(new JsonObject(refused.body()).getString("message")).as(internal).startsWith("url refused: its host "
          + "is a ").contains("alerts go only to public addresses unless the server's admin allows the host "
          + "(notifications.readerAlertAllowedHosts)");
    }
    assertThat(new JsonObject(carol.get("/api/me/alerts").body()).getValue("target")).isNull();

    HttpResponse<String> view = alice.get("/api/me/alerts");
    assertThat(view.body()).doesNotContain("alice-topic", "tk_alice", String.valueOf(wm.port()));
    JsonObject shown = new JsonObject(view.body());
    assertThat(shown.getJsonObject("target").getString("topic")).isEqualTo("set");
    assertThat(shown.getJsonArray("series")).containsExactly("circus-nights", "quiet-town");

    Instant now = Instant.now();
    EventBus bus = harness.vertx().eventBus();
    bus.publish(Addresses.SCRAPER_DISCOVERY_FINISHED, new DiscoveryFinished(now, 2, List.of(
        new DiscoveryFinished.Queued("j1", "demo", "circus-nights"),
        new DiscoveryFinished.Queued("j2", "demo", "quiet-town")), 0).toJson());
    for (int i = 1; i <= 3; i++) {
      bus.publish(Addresses.LIBRARY_PUBLISHED, published("circus-nights", "Circus Nights", "chapter-000" + i,
          "c" + i, now.plusSeconds(i)));
    }
    bus.publish(Addresses.LIBRARY_PUBLISHED, published("quiet-town", "Quiet Town", "chapter-0009", "q9",
        now.plusSeconds(4)));
    bus.publish(Addresses.SCRAPER_JOB_PROGRESS, new JobProgress("j1", "demo", "Circus Nights", "done", null, null, 0,
        0, 3, 3).toJson());
    bus.publish(Addresses.SCRAPER_JOB_PROGRESS, new JobProgress("j2", "demo", "Quiet Town", "done", null, null, 0,
        0, 1, 1).toJson());

    awaitCount("/ntfy/alice-topic", 2);
    awaitCount("/hook/bob", 1);
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() ->
        posts("/ntfy/alice-topic").size() == 2 && posts("/hook/bob").size() == 1
            && wm.findAll(postRequestedFor(anyUrl())).size() == 3);
    assertThat(posts("/ntfy/alice-topic").stream().map(r -> r.getHeader("Title")))
        .containsExactlyInAnyOrder("3 new chapters of Circus Nights", "1 new chapter of Quiet Town");
    LoggedRequest circus = posts("/ntfy/alice-topic").stream()
        .filter(r -> r.getHeader("Title").contains("Circus")).findFirst().orElseThrow();
    assertThat(circus.getHeader("Authorization")).isEqualTo("Bearer tk_alice");
    assertThat(circus.getHeader("Click")).isEqualTo("https://manga.example.org/series.html?id=circus-nights");
    JsonObject bobs = new JsonObject(posts("/hook/bob").get(0).getBodyAsString());
    assertThat(bobs.getString("title")).isEqualTo("1 new chapter of Quiet Town");
    assertThat(bobs.encode()).doesNotContain("Circus Nights");
    assertThat(List.copyOf(logs.list).stream().map(ILoggingEvent::getFormattedMessage))
        .noneMatch(line -> line.contains("alice-topic") || line.contains("tk_alice") || line.contains("/hook/bob"));
  }
}
