package io.mangacircus.launcher.sources;

import io.mangacircus.testing.MangaDexApi;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static io.mangacircus.testing.MangaDexApi.journal;
import static io.mangacircus.testing.MangaDexApi.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.Nightly;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the lane lives with a source's limits and its circuit, the real scraper against a fake MangaDex on loopback:
 * an open circuit costs no title an attempt, a hold MangaDex announces is waited out with the job active and no
 * incident, and a hold named before a restart still holds after it.
 */
@Tag("realtime")
class SourceLimitsIT {

  private static final String TOKEN = "limits-it-token-01234567";
  private static final String SOURCE = "mangadex";

  @TempDir
  Path data;

  // The hold MangaDex announces: 2 at-home look-ups per rolling window, 12 s by default, 32 s in the nightly run.
  private static final long HOLD_WINDOW_MS = Nightly.pick(12_000L, 32_000L);
  // The Retry-After a refusal names before a restart: longer than a restart takes, shorter by default than nightly.
  private static final int RESTART_RETRY_AFTER_SECONDS = Nightly.pick(10, 15);

  private final FakeMangaDex.AtHomeWindow window = new FakeMangaDex.AtHomeWindow(2, HOLD_WINDOW_MS);
  private final WireMockServer api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1")
      .extensions(window));
  private LauncherHarness harness;
  private AdminApi admin;

  @BeforeEach
  void start() {
    api.start();
  }

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
    api.stop();
  }

  private void startProduct(Consumer<JsonObject> tweaks) {
    JsonObject scraper = new JsonObject().put("claimPollMs", 50)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("failures", new JsonObject().put("requestRetries", 2).put("retryBackoffMs", 50))
        .put("sources", new JsonObject().put(SOURCE, new JsonObject().put("type", "mangadex")
            .put("baseUrl", api.baseUrl()).put("pageDelayMs", 0).put("chapterDelayMs", 0)
            .put("options", new JsonObject().put("feedPageSize", 100))));
    tweaks.accept(scraper);
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN))
        .put("scraper", scraper).encode()).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
  }

  private String add(int title) {
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", SOURCE)
        .put("title", FakeMangaDex.titleId(title)).put("autoConfirm", true));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    return added.json().getJsonObject("job").getString("id");
  }

  private JsonObject lane() {
    return admin.get("/api/admin/lanes").json().getJsonArray("lanes").stream().map(JsonObject.class::cast)
        .filter(l -> l.getString("source").equals(SOURCE)).findFirst().orElseThrow();
  }

  private JsonObject incidents() {
    return admin.get("/api/admin/incidents").json();
  }

  private List<LoggedRequest> atHomeCalls() {
    return journal(api).stream().filter(r -> path(r).startsWith("/at-home/server/")).toList();
  }

  // ---- circuits -------------------------------------------------------------------------------------------------

  @Test
  void anOpenCircuitSendsAnUnrelatedTitleToRetryWaitWithoutSpendingAnAttemptAndBothFinish() {
    FakeMangaDex.title(api, 1, "Hanging Title", 1, 100);
    FakeMangaDex.title(api, 2, "Unrelated Title", 2, 100);
    // Title 1's only page hangs up on every try: its request and two retries open the circuit (3 failures).
    StubMapping hanging = api.stubFor(get(urlPathEqualTo("/" + FakeMangaDex.NODE + "/data/" + FakeMangaDex.hash(1, 1)
        + "/1-" + FakeMangaDex.hash(1, 1) + ".png")).atPriority(1)
        .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    // The title's only job-level retry comes sooner than the circuit lets a trial call through.
    startProduct(s -> s.getJsonObject("failures").put("circuitMaxFailures", 3).put("circuitOpenSeconds", 4)
        .put("retryWaitSeconds", 1));

    String hangingJob = add(1);
    String unrelatedJob = add(2);
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
        .until(() -> "open".equals(lane().getString("circuit")));
    api.removeStub(hanging);
    int sentBeforeTheCircuitLetsATrialThrough = journal(api).size();

    JsonObject waiting = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
        .until(() -> admin.job(unrelatedJob), j -> "retry_wait".equals(j.getString("state")));
    assertThat(waiting.getString("reason")).contains("circuit open until");
    assertThat(waiting.getInteger("attempts")).as("nothing was sent for it").isZero();

    admin.awaitJobState(unrelatedJob, "done");
    admin.awaitJobState(hangingJob, "done");
    assertThat(admin.job(unrelatedJob).getInteger("attempts")).isZero();
    assertThat(admin.job(hangingJob).getInteger("attempts")).as("only its one real failure counts").isEqualTo(1);
    assertThat(incidents().getJsonArray("incidents").stream().map(JsonObject.class::cast).toList())
        .as("one network incident: the requests that were sent and failed").singleElement()
        .satisfies(i -> assertThat(i.getString("jobId")).isEqualTo(hangingJob));
    assertThat(journal(api).size()).as("both titles were downloaded after the circuit let calls through")
        .isGreaterThan(sentBeforeTheCircuitLetsATrialThrough);
  }

  // ---- holds ----------------------------------------------------------------------------------------------------

  @Test
  void aHoldMangaDexAnnouncesIsWaitedOutWithTheJobActiveTheLaneRunningAndNoIncident() throws Exception {
    // The server allows 2 at-home look-ups per rolling window and says so on the 2nd: Remaining 0, Retry-After.
    FakeMangaDex.title(api, 3, "Held Title", 3, 100, FakeMangaDex.AtHomeWindow.NAME);
    startProduct(s -> { });
    AtomicBoolean everPaused = new AtomicBoolean();

    String job = add(3);
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> atHomeCalls().size() == 2
        && journal(api).stream().filter(r -> path(r).startsWith("/" + FakeMangaDex.NODE + "/")).count() == 2);
    LoggedRequest announcing = atHomeCalls().get(1);
    long holdEnds = Long.parseLong(api.getAllServeEvents().stream()
        .filter(e -> e.getRequest().getLoggedDate().equals(announcing.getLoggedDate())).findFirst().orElseThrow()
        .getResponse().getHeaders().getHeader("X-RateLimit-Retry-After").firstValue()) * 1000;
    // While the hold lasts the job stays active and the lane is not paused.
    await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(200))
        .until(() -> {
          everPaused.compareAndSet(false, lane().getBoolean("paused"));
          return "active".equals(admin.job(job).getString("state")) && !lane().getBoolean("paused");
        });
    admin.awaitJobState(job, "done");

    assertThat(everPaused).isFalse();
    assertThat(admin.job(job).getInteger("attempts")).isZero();
    assertThat(admin.job(job).getInteger("interruptions")).as("waited in place").isZero();
    assertThat(incidents().getLong("open")).isZero();
    assertThat(incidents().getJsonArray("incidents")).as("a hold is not a failure").isEmpty();
    assertThat(window.refused()).as("no look-up was refused").isZero();
    List<LoggedRequest> atHome = atHomeCalls();
    assertThat(atHome).hasSize(3);
    assertThat(atHome.get(2).getLoggedDate().getTime()).as("the third look-up waited for the time MangaDex named")
        .isGreaterThanOrEqualTo(holdEnds);
    assertThat(Files.readAllLines(data.resolve("scraper/events.log"))).as("the hold is on record")
        .anySatisfy(line -> assertThat(line).contains("lane.settings", "holdUntil",
            "waiting for MangaDex's at-home limit"));
  }

  @Test
  void aHoldMangaDexNamedBeforeARestartStillHoldsAfterItAndAfterAResume() {
    FakeMangaDex.title(api, 4, "Restarted Title", 2, 100);
    String first = "/at-home/server/" + FakeMangaDex.chapterId(4, 1);
    api.stubFor(get(urlPathEqualTo(first)).atPriority(1).inScenario("limit").whenScenarioStateIs(STARTED)
        .willReturn(MangaDexApi.json(429, MangaDexApi.resource("error-429.json"))
            .withHeader("Retry-After", String.valueOf(RESTART_RETRY_AFTER_SECONDS)))
        .willSetStateTo("refused once"));
    startProduct(s -> { });

    String job = add(4);
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> atHomeCalls().size() == 1);
    long holdEnds = atHomeCalls().get(0).getLoggedDate().getTime() + RESTART_RETRY_AFTER_SECONDS * 1_000L;
    // The queue has its hold on disk once the job is back in the queue; then the process goes.
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> !"active".equals(admin.job(job).getString("state")));
    harness.close();
    int beforeRestart = journal(api).size();

    startProduct(s -> { });
    long restarted = System.currentTimeMillis();
    System.out.println("[SourceLimitsIT] restarted " + (holdEnds - restarted) + " ms before the hold's end");
    admin.post("/api/admin/lanes/" + SOURCE + "/resume", null);
    admin.awaitJobState(job, "done");

    List<LoggedRequest> after = journal(api).subList(beforeRestart, journal(api).size());
    assertThat(after).isNotEmpty();
    assertThat(restarted).as("the product was back, and resumed, while the hold still ran").isLessThan(holdEnds);
    assertThat(after.get(0).getLoggedDate().getTime()).as("nothing was sent before the time MangaDex named")
        .isGreaterThanOrEqualTo(holdEnds);
    assertThat(journal(api).stream().filter(r -> path(r).equals(first))).as("refused once, asked once more")
        .hasSize(2);
    assertThat(admin.job(job).getInteger("attempts")).isZero();
  }

  // ---- inspection -------------------------------------------------------------------------------------------------

  @Test
  void inspectionFollowsThePacingAndAfterA429GivesItsLeaseBackAndGoesOnFromTheFeedPageItHad() {
    FakeMangaDex.title(api, 5, "Long Feed", 250, 100);
    String feed = "/manga/" + FakeMangaDex.titleId(5) + "/feed";
    api.stubFor(get(urlPathEqualTo(feed)).withQueryParam("offset", com.github.tomakehurst.wiremock.client.WireMock
        .equalTo("200")).atPriority(1).inScenario("feed").whenScenarioStateIs(STARTED)
        .willReturn(MangaDexApi.json(429, MangaDexApi.resource("error-429.json"))
            .withHeader("Retry-After", "1"))
        .willSetStateTo("refused once"));
    startProduct(s -> s.getJsonObject("sources").getJsonObject(SOURCE).put("pageDelayMs", 700));

    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", SOURCE)
        .put("title", FakeMangaDex.titleId(5)).put("autoConfirm", false));
    String job = added.json().getJsonObject("job").getString("id");
    admin.awaitJobState(job, "ready");

    List<LoggedRequest> requests = journal(api);
    assertThat(requests).extracting(r -> path(r) + (path(r).endsWith("/feed")
        ? "@" + r.queryParameter("offset").firstValue() : "")).as("the feed goes on where it stopped")
        .containsExactly("/manga/" + FakeMangaDex.titleId(5), feed + "@0", feed + "@100", feed + "@200",
            feed + "@200", feed + "@0");
    for (int i = 1; i < 4; i++) {
      assertThat(requests.get(i).getLoggedDate().getTime() - requests.get(i - 1).getLoggedDate().getTime())
          .as("the lane's pacing between inspection requests").isGreaterThanOrEqualTo(700);
    }
    long afterThe429 = requests.get(4).getLoggedDate().getTime() - requests.get(3).getLoggedDate().getTime();
    assertThat(afterThe429).as("the lease was given back at once: the hold, not a 120 s lease, was waited")
        .isBetween(1_000L, 10_000L);
    assertThat(admin.job(job).getInteger("attempts")).isZero();
    assertThat(admin.job(job).getInteger("chapters")).isEqualTo(250);
    assertThat(lane().getBoolean("paused")).isFalse();
  }
}
