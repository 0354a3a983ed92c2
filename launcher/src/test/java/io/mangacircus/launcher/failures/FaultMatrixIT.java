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
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.DemoSite;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One case per row of docs/architecture.md §5's table, each row a WireMock site of its own behind a source of its own,
 * while a healthy demo source keeps downloading next to them. Each case checks the job state, the lane and circuit,
 * the incident and its events.log line. Rows that share the scraper's settings run side by side in one launcher
 * (a source's lane, circuit and incidents are its own); rows that need other settings, or that stop every lane, get a
 * launcher of their own.
 */
@Tag("realtime")
class FaultMatrixIT {

  private static final String TOKEN = "fault-matrix-token-01234";
  private static final String TITLE = "/series/t1";
  private static final String CHAPTER = "/series/t1/chapter/c1";
  private static final int PAGES = 3;
  private static final String METRICS_TOKEN = "fault-matrix-metrics-012";
  private static final String HEALTHY = "demo";

  // ---- the WireMock sites -------------------------------------------------------------------------------------

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

  /** A healthy site; each case then breaks one thing. */
  private static void healthySite(WireMockServer site) {
    site.stubFor(get(urlEqualTo(TITLE)).willReturn(html(titleHtml("en"))));
    site.stubFor(get(urlEqualTo(CHAPTER)).willReturn(html(chapterHtml())));
    for (int i = 1; i <= PAGES; i++) {
      site.stubFor(get(urlEqualTo("/img/t1/c1/00" + i + ".jpg")).willReturn(aResponse().withStatus(200)
          .withHeader("Content-Type", "image/jpeg").withBody(TestImages.image("jpg", 60, 90, i))));
    }
  }

  /**
   * One launcher whose scraper reads one WireMock site per row (the source is named after the row) and the demo site
   * as the healthy source {@value #HEALTHY}.
   */
  static final class Matrix implements AutoCloseable {

    private final Path data;
    private final Map<String, WireMockServer> sites = new LinkedHashMap<>();
    private final Vertx siteVertx = Vertx.vertx();
    private final DemoSite healthy;
    private LauncherHarness harness;
    private AdminApi admin;

    Matrix(Path data, List<String> rows) throws Exception {
      this.data = data;
      for (String row : rows) {
        WireMockServer site = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        site.start();
        sites.put(row, site);
      }
      DemoFaults faults = new DemoFaults();
      faults.slowPages(Duration.ofMillis(20));
      healthy = DemoSite.start(siteVertx, "127.0.0.1", 0, DemoSiteExtension.sharedCatalog(), faults).toCompletionStage()
          .toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    WireMockServer site(String row) {
      return sites.get(row);
    }

    void start(Consumer<JsonObject> scraperTweaks) {
      JsonObject sources = new JsonObject();
      sites.forEach((row, site) -> sources.put(row, new JsonObject().put("type", "demo").put("baseUrl", site.baseUrl())
          .put("pageDelayMs", 0).put("chapterDelayMs", 0)));
      sources.put(HEALTHY, new JsonObject().put("type", "demo").put("baseUrl", healthy.baseUrl())
          .put("pageDelayMs", 0).put("chapterDelayMs", 0));
      JsonObject scraper = new JsonObject().put("claimPollMs", 50)
          .put("pageTimeoutSeconds", 30).put("metadataTimeoutSeconds", 30)
          .put("recovery", new JsonObject().put("delayMs", 0))
          .put("failures", new JsonObject().put("requestRetries", 2).put("retryBackoffMs", 50)
              .put("circuitMaxFailures", 3).put("circuitOpenSeconds", 300).put("retryWaitSeconds", 300))
          .put("stall", new JsonObject().put("checkIntervalSeconds", 1).put("stallAfterSeconds", 2)
              .put("chapterDelayGraceSeconds", 0))
          .put("sources", sources);
      scraperTweaks.accept(scraper);
      harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN))
          .put("metrics", new JsonObject().put("token", METRICS_TOKEN))
          .put("scraper", scraper).encode()).startStandard(Mode.ALL);
      admin = new AdminApi(harness.port(), TOKEN);
    }

    String add(String source, String title) {
      Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", source).put("title", title)
          .put("autoConfirm", true));
      assertThat(added.status()).as(added.body()).isEqualTo(201);
      return added.json().getJsonObject("job").getString("id");
    }

    JsonObject job(String id) {
      return admin.get("/api/admin/jobs").json().getJsonArray("jobs").stream().map(JsonObject.class::cast)
          .filter(j -> j.getString("id").equals(id)).findFirst().orElseThrow();
    }

    JsonObject lane(String source) {
      return admin.get("/api/admin/lanes").json().getJsonArray("lanes").stream().map(JsonObject.class::cast)
          .filter(l -> l.getString("source").equals(source)).findFirst().orElseThrow();
    }

    List<JsonObject> incidents(String source) {
      return admin.get("/api/admin/incidents").json().getJsonArray("incidents").stream().map(JsonObject.class::cast)
          .filter(i -> source.equals(i.getString("source"))).toList();
    }

    /** The newest incident of a source of a kind. */
    JsonObject incidentOf(String source, String kind) {
      return incidents(source).stream().filter(i -> i.getString("kind").equals(kind)).findFirst()
          .orElseThrow(() -> new AssertionError("no " + kind + " incident of " + source));
    }

    /** Waits for the job to reach {@code state}, then for the healthy job to be done: the healthy source goes on. */
    JsonObject outcome(String job, String state, String healthyJob) {
      eventually(() -> state.equals(job(job).getString("state")));
      eventually(() -> "done".equals(job(healthyJob).getString("state")));
      return job(job);
    }

    void assertEventLogged(String source, String kind) throws Exception {
      assertThat(Files.readAllLines(data.resolve("scraper/events.log"))).anySatisfy(line -> {
        JsonObject event = new JsonObject(line);
        assertThat(event.getString("type")).isEqualTo("incident");
        assertThat(event.getString("source")).isEqualTo(source);
        assertThat(event.getJsonObject("failure").getString("kind")).isEqualTo(kind);
      });
    }

    List<String> stagedPages(String source) throws Exception {
      try (var entries = Files.list(data.resolve("library"))) {
        Path staging = entries.filter(p -> p.getFileName().toString().startsWith(".staging-mcscraper-resume-"))
            .filter(p -> Files.exists(p.resolve("checkpoint.json")))
            .filter(p -> {
              try {
                return source.equals(new JsonObject(Files.readString(p.resolve("checkpoint.json")))
                    .getString("source"));
              } catch (java.io.IOException e) {
                return false;
              }
            }).findFirst().orElseThrow();
        try (var files = Files.list(staging)) {
          return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jpg")).sorted().toList();
        }
      }
    }

    String metrics() {
      return HttpProbe.get(harness.port(), "/metrics", METRICS_TOKEN).body();
    }

    long openIncidents() {
      return admin.get("/api/admin/incidents").json().getLong("open");
    }

    AdminApi admin() {
      return admin;
    }

    Path data() {
      return data;
    }

    @Override
    public void close() throws Exception {
      try {
        if (harness != null) {
          harness.close();
        }
        sites.values().forEach(WireMockServer::stop);
      } finally {
        siteVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    }
  }

  /** Waits up to a minute for {@code condition}. */
  private static void eventually(java.util.concurrent.Callable<Boolean> condition) {
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(condition);
  }

  // ---- rows that share the defaults: one launcher, all rows at once ----------------------------------------------

  @Nested
  @TestInstance(Lifecycle.PER_CLASS)
  class RowsSideBySide {

    private static final String RESET = "reset";
    private static final String HOLD = "hold";
    private static final String CHALLENGE = "challenge";
    private static final String GONE = "gone";
    private static final String FRENCH = "french";
    private static final String MALFORMED = "malformed";
    private static final String SYSTEMIC = "systemic";
    private static final String TRUNCATED = "truncated";
    private static final String HUNG = "hung";

    private Matrix matrix;
    private String healthyJob;
    private final Map<String, String> jobs = new HashMap<>();

    private static String refused(int status) {
      return "refused-" + status;
    }

    @BeforeAll
    void startAllRows(@TempDir Path data) throws Exception {
      matrix = new Matrix(data, List.of(RESET, HOLD, refused(401), refused(403), CHALLENGE, GONE, FRENCH, MALFORMED,
          SYSTEMIC, TRUNCATED, HUNG));

      healthySite(matrix.site(RESET));
      matrix.site(RESET).stubFor(get(urlEqualTo("/img/t1/c1/002.jpg"))
          .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

      healthySite(matrix.site(HOLD));
      matrix.site(HOLD).stubFor(get(urlEqualTo("/img/t1/c1/001.jpg")).atPriority(1).inScenario("limit")
          .whenScenarioStateIs(Scenario.STARTED)
          .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2").withBody("slow down"))
          .willSetStateTo("refused once"));

      for (int status : new int[] {401, 403}) {
        healthySite(matrix.site(refused(status)));
        matrix.site(refused(status)).stubFor(get(urlEqualTo("/img/t1/c1/001.jpg")).willReturn(aResponse()
            .withStatus(status).withHeader("Retry-After", "30").withBody("no")));
      }

      healthySite(matrix.site(CHALLENGE));
      matrix.site(CHALLENGE).stubFor(get(urlEqualTo(CHAPTER)).willReturn(html(
          "<html><head><title>Just a moment...</title></head>"
          + "<body><div id=\"challenge-platform\">Checking your browser</div></body></html>")));

      matrix.site(GONE).stubFor(get(urlEqualTo(TITLE)).willReturn(aResponse().withStatus(404)));

      matrix.site(FRENCH).stubFor(get(urlEqualTo(TITLE)).willReturn(html(titleHtml("fr"))));

      matrix.site(MALFORMED).stubFor(get(urlEqualTo(TITLE))
          .willReturn(html("<html><body><h2>Redesigned site</h2></body></html>")));

      matrix.site(SYSTEMIC).stubFor(get(urlEqualTo(TITLE)).willReturn(html("<html><body>new layout</body></html>")));
      matrix.site(SYSTEMIC).stubFor(get(urlEqualTo("/series/t2"))
          .willReturn(html("<html><body>new layout</body></html>")));

      healthySite(matrix.site(TRUNCATED));
      byte[] image = TestImages.image("jpg", 60, 90, 3);
      matrix.site(TRUNCATED).stubFor(get(urlEqualTo("/img/t1/c1/003.jpg")).willReturn(aResponse().withStatus(200)
          .withHeader("Content-Type", "image/jpeg").withBody(Arrays.copyOf(image, image.length / 2))));

      healthySite(matrix.site(HUNG));
      matrix.site(HUNG).stubFor(get(urlEqualTo("/img/t1/c1/002.jpg")).willReturn(aResponse().withStatus(200)
          .withHeader("Content-Type", "image/jpeg").withBody(TestImages.image("jpg", 60, 90, 2))
          .withFixedDelay(20_000)));

      matrix.start(s -> { });
      healthyJob = matrix.add(HEALTHY, "tightrope-walker");
      for (String row : List.of(RESET, HOLD, refused(401), refused(403), CHALLENGE, GONE, FRENCH, MALFORMED, SYSTEMIC,
          TRUNCATED, HUNG)) {
        jobs.put(row, matrix.add(row, "t1"));
      }
    }

    @AfterAll
    void stop() throws Exception {
      matrix.close();
    }

    private JsonObject run(String row, String expectedState) {
      return matrix.outcome(jobs.get(row), expectedState, healthyJob);
    }

    // ---- network ----------------------------------------------------------------------------------------------

    @Test
    void connectionResetOpensTheCircuitAndSendsTheJobToRetryWaitKeepingItsPages() throws Exception {
      JsonObject job = run(RESET, "retry_wait");

      assertThat(job.getString("retryAt")).isNotNull();
      assertThat(job.getString("reason")).contains("network");
      assertThat(matrix.lane(RESET).getString("circuit")).isEqualTo("open");
      assertThat(matrix.lane(RESET).getBoolean("paused")).isFalse();
      assertThat(matrix.incidentOf(RESET, "network").getString("action")).isEqualTo("job retry_wait");
      assertThat(matrix.metrics()).contains("mc_circuit_state{source=\"" + RESET + "\"} 2.0",
          "mc_circuit_state{source=\"" + HEALTHY + "\"} 0.0");
      // The other rows' incidents are open too: the gauge counts what the incident list counts as open.
      Pattern gauge = Pattern.compile("(?m)^mc_open_incidents (\\d+)\\.0$");
      eventually(() -> {
        long before = matrix.openIncidents();
        Matcher m = gauge.matcher(matrix.metrics());
        return m.find() && Long.parseLong(m.group(1)) == before && before == matrix.openIncidents() && before >= 1;
      });
      assertThat(matrix.site(RESET).findAll(getRequestedFor(urlEqualTo("/img/t1/c1/002.jpg"))))
          .as("1 try + 2 request retries").hasSize(3);
      assertThat(matrix.stagedPages(RESET)).as("the checkpoint is kept").containsExactly("001.jpg");
      matrix.assertEventLogged(RESET, "network");
    }

    // ---- access -----------------------------------------------------------------------------------------------

    @Test
    void a429HoldsTheLaneUntilTheNamedTimeAndItGoesOnByItselfWithoutIncidentOrAttempt() throws Exception {
      JsonObject job = run(HOLD, "done");

      assertThat(matrix.lane(HOLD).getBoolean("paused")).isFalse();
      assertThat(matrix.lane(HOLD).getString("circuit")).isEqualTo("closed");
      assertThat(job.getInteger("attempts")).isZero();
      assertThat(matrix.incidents(HOLD)).as("a 429 is a hold, not a failure").isEmpty();
      var tries = matrix.site(HOLD).findAll(getRequestedFor(urlEqualTo("/img/t1/c1/001.jpg")));
      assertThat(tries).hasSize(2);
      assertThat(tries.get(1).getLoggedDate().getTime() - tries.get(0).getLoggedDate().getTime())
          .as("nothing sent before the time the site named").isGreaterThanOrEqualTo(2_000);
      assertThat(Files.readAllLines(matrix.data().resolve("scraper/events.log"))).as("the hold is on record")
          .anySatisfy(line -> assertThat(line).contains("lane.settings", "holdUntil", "\"" + HOLD + "\""));
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void accessRefusalsPauseTheLaneWithoutRetryOrAttempt(int status) throws Exception {
      String row = refused(status);
      JsonObject job = run(row, "pending");

      assertThat(matrix.lane(row).getBoolean("paused")).isTrue();
      assertThat(matrix.lane(row).getString("pauseReason")).contains("access");
      assertThat(matrix.lane(row).getString("circuit")).as("only network failures count for the circuit")
          .isEqualTo("closed");
      assertThat(job.getInteger("attempts")).isZero();
      JsonObject incident = matrix.incidentOf(row, "access");
      assertThat(incident.getInteger("httpStatus")).isEqualTo(status);
      assertThat(incident.getString("action")).isEqualTo("lane paused");
      assertThat(matrix.site(row).findAll(getRequestedFor(urlEqualTo("/img/t1/c1/001.jpg")))).as("never retried")
          .hasSize(1);
      matrix.assertEventLogged(row, "access");

      // The site recovered before the operator resumes, so the resumed lane does not run into the refusal again.
      matrix.site(row).stubFor(get(urlEqualTo("/img/t1/c1/001.jpg")).willReturn(aResponse().withStatus(200)
          .withHeader("Content-Type", "image/jpeg").withBody(TestImages.image("jpg", 60, 90, 1))));
      assertThat(matrix.admin().post("/api/admin/lanes/" + row + "/resume", null).status()).isEqualTo(200);
      assertThat(matrix.incidents(row).stream().filter(i -> i.getValue("resolvedAt") == null))
          .as("a resume clears the lane's incident").isEmpty();
    }

    @Test
    void aChallengePageServedWith200IsAnAccessFailureNotContent() throws Exception {
      run(CHALLENGE, "pending");

      assertThat(matrix.lane(CHALLENGE).getBoolean("paused")).isTrue();
      JsonObject incident = matrix.incidentOf(CHALLENGE, "access");
      assertThat(incident.getInteger("httpStatus")).isEqualTo(200);
      assertThat(incident.getString("message")).contains("challenge");
      matrix.assertEventLogged(CHALLENGE, "access");
    }

    // ---- unavailable ------------------------------------------------------------------------------------------

    @Test
    void aTitleThatIsGoneIsUnavailableAndNotRetried() throws Exception {
      JsonObject job = run(GONE, "unavailable");

      assertThat(job.getString("reason")).contains("not found");
      assertThat(matrix.site(GONE).findAll(getRequestedFor(urlEqualTo(TITLE)))).hasSize(1);
      assertThat(matrix.incidentOf(GONE, "unavailable").getString("action")).isEqualTo("job unavailable");
      matrix.assertEventLogged(GONE, "unavailable");
    }

    @Test
    void aTitleWithoutEnglishChaptersIsUnavailable() throws Exception {
      JsonObject job = run(FRENCH, "unavailable");

      assertThat(job.getString("reason")).contains("no English chapters");
      assertThat(matrix.lane(FRENCH).getString("circuit")).as("only network failures count for the circuit")
          .isEqualTo("closed");
      matrix.assertEventLogged(FRENCH, "unavailable");
    }

    // ---- parser -----------------------------------------------------------------------------------------------

    @Test
    void malformedHtmlQuarantinesTheJobNamingTheSelector() throws Exception {
      JsonObject job = run(MALFORMED, "quarantined");

      assertThat(job.getString("reason")).contains("h1.series-title");
      assertThat(matrix.lane(MALFORMED).getString("circuit")).as("only network failures count for the circuit")
          .isEqualTo("closed");
      assertThat(matrix.incidentOf(MALFORMED, "parser").getString("action")).isEqualTo("job quarantined");
      matrix.assertEventLogged(MALFORMED, "parser");
    }

    @Test
    void parserQuarantinesOfTwoJobsOfOneSourcePauseItsLaneAsSystemicWithOneIncident() {
      run(SYSTEMIC, "quarantined");
      assertThat(matrix.lane(SYSTEMIC).getBoolean("paused")).as("one quarantine is not systemic").isFalse();
      String second = matrix.add(SYSTEMIC, "t2");
      eventually(() -> "quarantined".equals(matrix.job(second).getString("state")));

      assertThat(matrix.lane(SYSTEMIC).getBoolean("paused")).isTrue();
      assertThat(matrix.lane(SYSTEMIC).getString("pauseReason")).contains("systemic parser failure");
      assertThat(matrix.incidents(SYSTEMIC).stream().filter(i -> i.getString("message").contains("systemic")))
          .hasSize(1);
      assertThat(matrix.lane(HEALTHY).getBoolean("paused")).as("the other sources' lanes go on").isFalse();
    }

    @Test
    void aTruncatedImageQuarantinesTheJobAndKeepsTheValidatedPages() throws Exception {
      JsonObject job = run(TRUNCATED, "quarantined");

      assertThat(job.getString("reason")).contains("page 3", "truncated");
      assertThat(matrix.lane(TRUNCATED).getString("circuit")).as("only network failures count for the circuit")
          .isEqualTo("closed");
      assertThat(matrix.stagedPages(TRUNCATED)).containsExactly("001.jpg", "002.jpg");
      matrix.assertEventLogged(TRUNCATED, "parser");
    }

    // ---- stall ------------------------------------------------------------------------------------------------

    @Test
    void aHungResponseIsAStallThatRequeuesTheJob() throws Exception {
      String hungJob = jobs.get(HUNG);
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .until(() -> matrix.incidents(HUNG).stream().anyMatch(i -> i.getString("kind").equals("stall")));

      JsonObject stall = matrix.incidentOf(HUNG, "stall");
      assertThat(stall.getString("jobId")).isEqualTo(hungJob);
      assertThat(stall.getString("action")).isEqualTo("job requeued");
      assertThat(matrix.job(hungJob).getString("state")).isIn("pending", "active");
      assertThat(matrix.job(hungJob).getInteger("attempts")).as("a stall requeue is a system interruption").isZero();
      eventually(() -> "done".equals(matrix.job(healthyJob).getString("state")));
      matrix.assertEventLogged(HUNG, "stall");
    }
  }

  // ---- rows with settings of their own: a launcher each ------------------------------------------------------------

  @Nested
  @TestInstance(Lifecycle.PER_CLASS)
  class ServerErrorRows {

    private Matrix matrix;
    private String healthyJob;
    private final Map<Integer, String> jobs = new HashMap<>();

    @BeforeAll
    void startRows(@TempDir Path data) throws Exception {
      matrix = new Matrix(data, List.of("error-500", "error-502", "error-503"));
      for (int status : new int[] {500, 502, 503}) {
        WireMockServer site = matrix.site("error-" + status);
        healthySite(site);
        site.stubFor(get(urlEqualTo(CHAPTER)).willReturn(aResponse().withStatus(status)
            .withHeader("Retry-After", "1").withBody("upstream trouble")));
      }
      // Two 1 s Retry-After waits outlast the 2 s stall window of the other rows: without a longer one the watchdog
      // could requeue the job before the request retries end (seen under load).
      matrix.start(s -> s.getJsonObject("stall").put("stallAfterSeconds", 30));
      healthyJob = matrix.add(HEALTHY, "tightrope-walker");
      for (int status : new int[] {500, 502, 503}) {
        jobs.put(status, matrix.add("error-" + status, "t1"));
      }
    }

    @AfterAll
    void stop() throws Exception {
      matrix.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503})
    void serverErrorsAreNetworkFailuresRetriedAtRequestLevelThenRetryWait(int status) throws Exception {
      String row = "error-" + status;
      JsonObject job = matrix.outcome(jobs.get(status), "retry_wait", healthyJob);

      assertThat(matrix.incidentOf(row, "network").getInteger("httpStatus")).isEqualTo(status);
      assertThat(job.getInteger("attempts")).isEqualTo(1);
      assertThat(matrix.site(row).findAll(getRequestedFor(urlEqualTo(CHAPTER)))).hasSize(3);
      assertThat(matrix.lane(row).getString("circuit")).isEqualTo("open");
      matrix.assertEventLogged(row, "network");
    }
  }

  /** A row whose settings are its own: one "flaky" source beside the healthy one, in a launcher of its own. */
  @TestInstance(Lifecycle.PER_CLASS)
  abstract class FlakyRowAlone {

    Matrix matrix;

    @BeforeAll
    void startRow(@TempDir Path data) throws Exception {
      matrix = new Matrix(data, List.of("flaky"));
    }

    @AfterAll
    void stop() throws Exception {
      matrix.close();
    }
  }

  @Nested
  class RetrySpentRow extends FlakyRowAlone {

    @Test
    void theOneJobLevelRetryIsSpentThenTheNextNetworkFailureQuarantines() {
      healthySite(matrix.site("flaky"));
      matrix.site("flaky").stubFor(get(urlEqualTo(CHAPTER)).willReturn(aResponse().withStatus(502)));
      matrix.start(s -> s.getJsonObject("failures").put("retryWaitSeconds", 1).put("circuitOpenSeconds", 1)
          .put("circuitMaxFailures", 100));
      String healthyJob = matrix.add(HEALTHY, "tightrope-walker");
      String flakyJob = matrix.add("flaky", "t1");

      JsonObject job = matrix.outcome(flakyJob, "quarantined", healthyJob);

      assertThat(job.getInteger("attempts")).isEqualTo(2);
      assertThat(job.getString("reason")).contains("network");
      assertThat(matrix.site("flaky").findAll(getRequestedFor(urlEqualTo(CHAPTER))))
          .as("two job tries of 3 requests each").hasSize(6);
    }
  }

  @Nested
  class StorageRow extends FlakyRowAlone {

    @Test
    void aLibraryThatCannotBeWrittenPausesAllDownloadsAndPublishesNothing() throws Exception {
      healthySite(matrix.site("flaky"));
      // Tests run as root, for whom permission bits do not stop writes: a file where the library folder should be
      // makes every write below it fail the way a read-only or full disk does.
      Path data = matrix.data();
      Files.createDirectories(data);
      Files.writeString(data.resolve("library"), "not a folder");
      matrix.start(s -> { });

      String flakyJob = matrix.add("flaky", "t1");
      await().atMost(Duration.ofSeconds(30)).until(() -> "paused".equals(matrix.job(flakyJob).getString("state")));

      assertThat(matrix.job(flakyJob).getString("reason")).contains("storage");
      assertThat(matrix.lane("flaky").getBoolean("paused")).isTrue();
      assertThat(matrix.lane(HEALTHY).getBoolean("paused")).as("all downloads pause").isTrue();
      assertThat(matrix.incidentOf("flaky", "storage").getString("action")).isEqualTo("all downloads paused");
      assertThat(Files.readString(data.resolve("library"))).isEqualTo("not a folder");
      String healthyJob = matrix.add(HEALTHY, "tightrope-walker");
      assertThat(matrix.job(healthyJob).getString("state")).isIn("pending");
      matrix.assertEventLogged("flaky", "storage");
    }
  }
}
