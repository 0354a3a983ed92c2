package io.mangacircus.launcher.failures;

import io.mangacircus.testing.TestImages;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.scraper.demo.DemoCatalog;
import io.mangacircus.scraper.demo.DemoFaults;
import io.mangacircus.scraper.demo.DemoSite;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One case per row of docs/architecture.md §5's table, against a WireMock source ("flaky") while a healthy demo source keeps
 * downloading next to it. Each case checks the job state, the lane and circuit, the incident and its events.log line.
 */
@Tag("realtime")
class FaultMatrixIT {

  private static final String TOKEN = "fault-matrix-token";
  private static final String TITLE = "/series/t1";
  private static final String CHAPTER = "/series/t1/chapter/c1";
  private static final int PAGES = 3;
  private static final String METRICS_TOKEN = "fault-matrix-metrics";

  @TempDir
  Path data;

  private final WireMockServer flaky = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private Vertx siteVertx;
  private DemoSite healthy;
  private LauncherHarness harness;
  private AdminApi admin;

  @BeforeEach
  void start() throws Exception {
    flaky.start();
    siteVertx = Vertx.vertx();
    DemoFaults faults = new DemoFaults();
    faults.slowPages(Duration.ofMillis(20));
    healthy = DemoSite.start(siteVertx, "127.0.0.1", 0, new DemoCatalog(), faults).toCompletionStage()
        .toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    if (harness != null) {
      harness.close();
    }
    flaky.stop();
    siteVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  // ---- the WireMock source ------------------------------------------------------------------------------------

  private static String titleHtml(String language) {
    return "<html><body><h1 class=\"series-title\">Flaky Title</h1><ul class=\"chapters\">"
        + "<li class=\"chapter\" data-id=\"c1\" data-number=\"1\" data-lang=\"" + language + "\">"
        + "<a href=\"" + CHAPTER + "\">Chapter 1</a></li></ul></body></html>";
  }

  private static String chapterHtml() {
    StringBuilder html = new StringBuilder("<html><body><div class=\"pages\">");
    for (int i = 1; i <= PAGES; i++) {
      html.append("<img class=\"page\" src=\"/img/t1/c1/00").append(i).append(".jpg\">");
    }
    return html.append("</div></body></html>").toString();
  }


  private static ResponseDefinitionBuilder html(String body) {
    return aResponse().withStatus(200).withHeader("Content-Type", "text/html; charset=utf-8").withBody(body);
  }

  /** A healthy flaky source; each case then breaks one thing. */
  private void healthyFlaky() {
    flaky.stubFor(get(urlEqualTo(TITLE)).willReturn(html(titleHtml("en"))));
    flaky.stubFor(get(urlEqualTo(CHAPTER)).willReturn(html(chapterHtml())));
    for (int i = 1; i <= PAGES; i++) {
      flaky.stubFor(get(urlEqualTo("/img/t1/c1/00" + i + ".jpg")).willReturn(aResponse().withStatus(200)
          .withHeader("Content-Type", "image/jpeg").withBody(TestImages.image("jpg", 60, 90, i))));
    }
  }

  private void startProduct(Consumer<JsonObject> scraperTweaks) {
    JsonObject scraper = new JsonObject().put("claimPollMs", 50)
        .put("pageTimeoutSeconds", 30).put("metadataTimeoutSeconds", 30)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("failures", new JsonObject().put("requestRetries", 2).put("retryBackoffMs", 50)
            .put("circuitMaxFailures", 3).put("circuitOpenSeconds", 300).put("retryWaitSeconds", 300))
        .put("stall", new JsonObject().put("checkIntervalSeconds", 1).put("stallAfterSeconds", 2)
            .put("chapterDelayGraceSeconds", 0))
        .put("sources", new JsonObject()
            .put("flaky", new JsonObject().put("type", "demo").put("baseUrl", flaky.baseUrl())
                .put("pageDelayMs", 0).put("chapterDelayMs", 0))
            .put("demo", new JsonObject().put("type", "demo").put("baseUrl", healthy.baseUrl())
                .put("pageDelayMs", 0).put("chapterDelayMs", 0)));
    scraperTweaks.accept(scraper);
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN))
        .put("metrics", new JsonObject().put("token", METRICS_TOKEN))
        .put("scraper", scraper).encode()).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
  }

  private String add(String source, String title) {
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", source).put("title", title)
        .put("autoConfirm", true));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    return added.json().getJsonObject("job").getString("id");
  }

  private JsonObject job(String id) {
    return admin.get("/api/admin/jobs").json().getJsonArray("jobs").stream().map(JsonObject.class::cast)
        .filter(j -> j.getString("id").equals(id)).findFirst().orElseThrow();
  }

  private JsonObject lane(String source) {
    return admin.get("/api/admin/lanes").json().getJsonArray("lanes").stream().map(JsonObject.class::cast)
        .filter(l -> l.getString("source").equals(source)).findFirst().orElseThrow();
  }

  /** The newest incident of the flaky source of a kind (the healthy source may record stalls on a loaded machine). */
  private JsonObject incidentOf(String kind) {
    return admin.get("/api/admin/incidents").json().getJsonArray("incidents").stream().map(JsonObject.class::cast)
        .filter(i -> i.getString("kind").equals(kind) && !"demo".equals(i.getString("source"))).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " incident"));
  }

  /** Starts both jobs, waits for the flaky one to reach {@code state}, and checks the healthy one goes on. */
  private JsonObject run(String expectedState) {
    String healthyJob = add("demo", "tightrope-walker");
    String flakyJob = add("flaky", "t1");
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
        .until(() -> expectedState.equals(job(flakyJob).getString("state")));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> "done".equals(job(healthyJob).getString("state")));
    return job(flakyJob);
  }

  private void assertEventLogged(String kind) throws Exception {
    assertThat(Files.readAllLines(data.resolve("scraper/events.log"))).anySatisfy(line -> {
      JsonObject event = new JsonObject(line);
      assertThat(event.getString("type")).isEqualTo("incident");
      assertThat(event.getJsonObject("failure").getString("kind")).isEqualTo(kind);
    });
  }

  // ---- network ------------------------------------------------------------------------------------------------

  @Test
  void connectionResetOpensTheCircuitAndSendsTheJobToRetryWaitKeepingItsPages() throws Exception {
    healthyFlaky();
    flaky.stubFor(get(urlEqualTo("/img/t1/c1/002.jpg")).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    startProduct(s -> { });

    JsonObject job = run("retry_wait");

    assertThat(job.getString("retryAt")).isNotNull();
    assertThat(job.getString("reason")).contains("network");
    assertThat(lane("flaky").getString("circuit")).isEqualTo("open");
    assertThat(lane("flaky").getBoolean("paused")).isFalse();
    assertThat(incidentOf("network").getString("action")).isEqualTo("job retry_wait");
    String metrics = io.mangacircus.launcher.testing.HttpProbe.get(harness.port(), "/metrics", METRICS_TOKEN).body();
    assertThat(metrics).contains("mc_circuit_state{source=\"flaky\"} 2.0", "mc_circuit_state{source=\"demo\"} 0.0",
        "mc_open_incidents 1.0");
    assertThat(flaky.findAll(getRequestedFor(urlEqualTo("/img/t1/c1/002.jpg")))).as("1 try + 2 request retries")
        .hasSize(3);
    assertThat(stagedPages()).as("the checkpoint is kept").containsExactly("001.jpg");
    assertEventLogged("network");
  }

  @ParameterizedTest
  @ValueSource(ints = {500, 502, 503})
  void serverErrorsAreNetworkFailuresRetriedAtRequestLevelThenRetryWait(int status) throws Exception {
    healthyFlaky();
    flaky.stubFor(get(urlEqualTo(CHAPTER)).willReturn(aResponse().withStatus(status).withHeader("Retry-After", "1")
        .withBody("upstream trouble")));
    // Two 1 s Retry-After waits outlast the 2 s stall window of the other cases: without a longer one the watchdog
    // could requeue the job before the request retries end (seen under load).
    startProduct(s -> s.getJsonObject("stall").put("stallAfterSeconds", 30));

    JsonObject job = run("retry_wait");

    assertThat(incidentOf("network").getInteger("httpStatus")).isEqualTo(status);
    assertThat(job.getInteger("attempts")).isEqualTo(1);
    assertThat(flaky.findAll(getRequestedFor(urlEqualTo(CHAPTER)))).hasSize(3);
    assertThat(lane("flaky").getString("circuit")).isEqualTo("open");
    assertEventLogged("network");
  }

  @Test
  void theOneJobLevelRetryIsSpentThenTheNextNetworkFailureQuarantines() {
    healthyFlaky();
    flaky.stubFor(get(urlEqualTo(CHAPTER)).willReturn(aResponse().withStatus(502)));
    startProduct(s -> s.getJsonObject("failures").put("retryWaitSeconds", 1).put("circuitOpenSeconds", 1)
        .put("circuitMaxFailures", 100));

    JsonObject job = run("quarantined");

    assertThat(job.getInteger("attempts")).isEqualTo(2);
    assertThat(job.getString("reason")).contains("network");
    assertThat(flaky.findAll(getRequestedFor(urlEqualTo(CHAPTER)))).as("two job tries of 3 requests each").hasSize(6);
  }

  // ---- access -------------------------------------------------------------------------------------------------

  @Test
  void a429HoldsTheLaneUntilTheNamedTimeAndItGoesOnByItselfWithoutIncidentOrAttempt() throws Exception {
    healthyFlaky();
    flaky.stubFor(get(urlEqualTo("/img/t1/c1/001.jpg")).atPriority(1).inScenario("limit")
        .whenScenarioStateIs(com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED)
        .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2").withBody("slow down"))
        .willSetStateTo("refused once"));
    startProduct(s -> { });

    JsonObject job = run("done");

    assertThat(lane("flaky").getBoolean("paused")).isFalse();
    assertThat(lane("flaky").getString("circuit")).isEqualTo("closed");
    assertThat(job.getInteger("attempts")).isZero();
    assertThat(admin.get("/api/admin/incidents").json().getJsonArray("incidents").stream().map(JsonObject.class::cast)
        .filter(i -> "flaky".equals(i.getString("source")))).as("a 429 is a hold, not a failure").isEmpty();
    var tries = flaky.findAll(getRequestedFor(urlEqualTo("/img/t1/c1/001.jpg")));
    assertThat(tries).hasSize(2);
    assertThat(tries.get(1).getLoggedDate().getTime() - tries.get(0).getLoggedDate().getTime())
        .as("nothing sent before the time the site named").isGreaterThanOrEqualTo(2_000);
    assertThat(Files.readAllLines(data.resolve("scraper/events.log"))).as("the hold is on record")
        .anySatisfy(line -> assertThat(line).contains("lane.settings", "holdUntil"));
  }

  @ParameterizedTest
  @ValueSource(ints = {401, 403})
  void accessRefusalsPauseTheLaneWithoutRetryOrAttempt(int status) throws Exception {
    healthyFlaky();
    flaky.stubFor(get(urlEqualTo("/img/t1/c1/001.jpg")).willReturn(aResponse().withStatus(status)
        .withHeader("Retry-After", "30").withBody("no")));
    startProduct(s -> { });

    JsonObject job = run("pending");

    assertThat(lane("flaky").getBoolean("paused")).isTrue();
    assertThat(lane("flaky").getString("pauseReason")).contains("access");
    assertThat(lane("flaky").getString("circuit")).as("only network failures count for the circuit").isEqualTo("closed");
    assertThat(job.getInteger("attempts")).isZero();
    JsonObject incident = incidentOf("access");
    assertThat(incident.getInteger("httpStatus")).isEqualTo(status);
    assertThat(incident.getString("action")).isEqualTo("lane paused");
    assertThat(flaky.findAll(getRequestedFor(urlEqualTo("/img/t1/c1/001.jpg")))).as("never retried").hasSize(1);
    assertEventLogged("access");

    // The site recovered before the operator resumes, so the resumed lane does not run into the refusal again.
    flaky.stubFor(get(urlEqualTo("/img/t1/c1/001.jpg")).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "image/jpeg").withBody(TestImages.image("jpg", 60, 90, 1))));
    assertThat(admin.post("/api/admin/lanes/flaky/resume", null).status()).isEqualTo(200);
    assertThat(admin.get("/api/admin/incidents").json().getJsonArray("incidents").stream().map(JsonObject.class::cast)
        .filter(i -> "flaky".equals(i.getString("source")) && i.getValue("resolvedAt") == null))
        .as("a resume clears the lane's incident").isEmpty();
  }

  @Test
  void aChallengePageServedWith200IsAnAccessFailureNotContent() throws Exception {
    healthyFlaky();
    flaky.stubFor(get(urlEqualTo(CHAPTER)).willReturn(html("<html><head><title>Just a moment...</title></head>"
        + "<body><div id=\"challenge-platform\">Checking your browser</div></body></html>")));
    startProduct(s -> { });

    run("pending");

    assertThat(lane("flaky").getBoolean("paused")).isTrue();
    JsonObject incident = incidentOf("access");
    assertThat(incident.getInteger("httpStatus")).isEqualTo(200);
    assertThat(incident.getString("message")).contains("challenge");
    assertEventLogged("access");
  }

  // ---- unavailable --------------------------------------------------------------------------------------------

  @Test
  void aTitleThatIsGoneIsUnavailableAndNotRetried() throws Exception {
    flaky.stubFor(get(urlEqualTo(TITLE)).willReturn(aResponse().withStatus(404)));
    startProduct(s -> { });

    JsonObject job = run("unavailable");

    assertThat(job.getString("reason")).contains("not found");
    assertThat(flaky.findAll(getRequestedFor(urlEqualTo(TITLE)))).hasSize(1);
    assertThat(incidentOf("unavailable").getString("action")).isEqualTo("job unavailable");
    assertEventLogged("unavailable");
  }

  @Test
  void aTitleWithoutEnglishChaptersIsUnavailable() throws Exception {
    flaky.stubFor(get(urlEqualTo(TITLE)).willReturn(html(titleHtml("fr"))));
    startProduct(s -> { });

    JsonObject job = run("unavailable");

    assertThat(job.getString("reason")).contains("no English chapters");
    assertThat(lane("flaky").getString("circuit")).as("only network failures count for the circuit").isEqualTo("closed");
    assertEventLogged("unavailable");
  }

  // ---- parser -------------------------------------------------------------------------------------------------

  @Test
  void malformedHtmlQuarantinesTheJobNamingTheSelector() throws Exception {
    flaky.stubFor(get(urlEqualTo(TITLE)).willReturn(html("<html><body><h2>Redesigned site</h2></body></html>")));
    startProduct(s -> { });

    JsonObject job = run("quarantined");

    assertThat(job.getString("reason")).contains("h1.series-title");
    assertThat(lane("flaky").getString("circuit")).as("only network failures count for the circuit").isEqualTo("closed");
    assertThat(incidentOf("parser").getString("action")).isEqualTo("job quarantined");
    assertEventLogged("parser");
  }

  @Test
  void parserQuarantinesOfTwoJobsOfOneSourcePauseItsLaneAsSystemicWithOneIncident() throws Exception {
    flaky.stubFor(get(urlEqualTo(TITLE)).willReturn(html("<html><body>new layout</body></html>")));
    flaky.stubFor(get(urlEqualTo("/series/t2")).willReturn(html("<html><body>new layout</body></html>")));
    startProduct(s -> { });

    String first = add("flaky", "t1");
    await().atMost(Duration.ofSeconds(30)).until(() -> "quarantined".equals(job(first).getString("state")));
    assertThat(lane("flaky").getBoolean("paused")).as("one quarantine is not systemic").isFalse();
    String second = add("flaky", "t2");
    await().atMost(Duration.ofSeconds(30)).until(() -> "quarantined".equals(job(second).getString("state")));

    assertThat(lane("flaky").getBoolean("paused")).isTrue();
    assertThat(lane("flaky").getString("pauseReason")).contains("systemic parser failure");
    long systemic = admin.get("/api/admin/incidents").json().getJsonArray("incidents").stream()
        .map(JsonObject.class::cast).filter(i -> i.getString("message").contains("systemic")).count();
    assertThat(systemic).isEqualTo(1);
    String healthyJob = add("demo", "tightrope-walker");
    await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(job(healthyJob).getString("state")));
  }

  @Test
  void aTruncatedImageQuarantinesTheJobAndKeepsTheValidatedPages() throws Exception {
    healthyFlaky();
    byte[] image = TestImages.image("jpg", 60, 90, 3);
    flaky.stubFor(get(urlEqualTo("/img/t1/c1/003.jpg")).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "image/jpeg").withBody(Arrays.copyOf(image, image.length / 2))));
    startProduct(s -> { });

    JsonObject job = run("quarantined");

    assertThat(job.getString("reason")).contains("page 3", "truncated");
    assertThat(lane("flaky").getString("circuit")).as("only network failures count for the circuit").isEqualTo("closed");
    assertThat(stagedPages()).containsExactly("001.jpg", "002.jpg");
    assertEventLogged("parser");
  }

  // ---- stall --------------------------------------------------------------------------------------------------

  @Test
  void aHungResponseIsAStallThatRequeuesTheJob() throws Exception {
    healthyFlaky();
    flaky.stubFor(get(urlEqualTo("/img/t1/c1/002.jpg")).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "image/jpeg").withBody(TestImages.image("jpg", 60, 90, 2)).withFixedDelay(20_000)));
    startProduct(s -> { });
    String healthyJob = add("demo", "tightrope-walker");
    String flakyJob = add("flaky", "t1");

    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() ->
        admin.get("/api/admin/incidents").json().getJsonArray("incidents").stream().map(JsonObject.class::cast)
            .anyMatch(i -> i.getString("kind").equals("stall")));

    JsonObject stall = incidentOf("stall");
    assertThat(stall.getString("jobId")).isEqualTo(flakyJob);
    assertThat(stall.getString("action")).isEqualTo("job requeued");
    assertThat(job(flakyJob).getString("state")).isIn("pending", "active");
    assertThat(job(flakyJob).getInteger("attempts")).as("a stall requeue is a system interruption").isZero();
    await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(job(healthyJob).getString("state")));
    assertEventLogged("stall");
  }

  // ---- storage ------------------------------------------------------------------------------------------------

  @Test
  void aLibraryThatCannotBeWrittenPausesAllDownloadsAndPublishesNothing() throws Exception {
    healthyFlaky();
    // Tests run as root, for whom permission bits do not stop writes: a file where the library folder should be
    // makes every write below it fail the way a read-only or full disk does.
    Files.createDirectories(data);
    Files.writeString(data.resolve("library"), "not a folder");
    startProduct(s -> { });

    String flakyJob = add("flaky", "t1");
    await().atMost(Duration.ofSeconds(30)).until(() -> "paused".equals(job(flakyJob).getString("state")));

    assertThat(job(flakyJob).getString("reason")).contains("storage");
    assertThat(lane("flaky").getBoolean("paused")).isTrue();
    assertThat(lane("demo").getBoolean("paused")).as("all downloads pause").isTrue();
    assertThat(incidentOf("storage").getString("action")).isEqualTo("all downloads paused");
    assertThat(Files.readString(data.resolve("library"))).isEqualTo("not a folder");
    String healthyJob = add("demo", "tightrope-walker");
    assertThat(job(healthyJob).getString("state")).isIn("pending");
    assertEventLogged("storage");
  }

  private List<String> stagedPages() throws Exception {
    try (var entries = Files.list(data.resolve("library"))) {
      Path staging = entries.filter(p -> p.getFileName().toString().startsWith(".staging-mcscraper-resume-"))
          .filter(p -> Files.exists(p.resolve("checkpoint.json")))
          .filter(p -> {
            try {
              return "flaky".equals(new JsonObject(Files.readString(p.resolve("checkpoint.json"))).getString("source"));
            } catch (java.io.IOException e) {
              return false;
            }
          }).findFirst().orElseThrow();
      try (var files = Files.list(staging)) {
        return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jpg")).sorted().toList();
      }
    }
  }
}
