package io.mangacircus.launcher.sources;

import io.mangacircus.testing.MangaDexApi;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.mangacircus.testing.MangaDexApi.journal;
import static io.mangacircus.testing.MangaDexApi.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.Extension;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole titles downloaded by the real scraper at pacing 0 from a fake MangaDex that enforces its limits the way a
 * server counts them, on arrival over rolling windows: the lane keeps under them by itself, and learns a stricter one.
 */
@Tag("realtime")
class MangaDexRateIT {

  private static final String TOKEN = "rate-it-token-0123456789";
  private static final String SOURCE = "mangadex";

  @TempDir
  Path data;

  private WireMockServer api;
  private LauncherHarness harness;
  private AdminApi admin;

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
    if (api != null) {
      api.stop();
    }
  }

  private void serve(Extension limit) {
    api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1").extensions(limit));
    api.start();
  }

  private void startProduct(JsonObject mangadexOptions) {
    JsonObject scraper = new JsonObject().put("claimPollMs", 50)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("sources", new JsonObject().put(SOURCE, new JsonObject().put("type", "mangadex")
            .put("baseUrl", api.baseUrl()).put("pageDelayMs", 0).put("chapterDelayMs", 0)
            .put("options", mangadexOptions)));
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

  private boolean lanePaused() {
    return admin.get("/api/admin/lanes").json().getJsonArray("lanes").stream().map(JsonObject.class::cast)
        .filter(l -> l.getString("source").equals(SOURCE)).findFirst().orElseThrow().getBoolean("paused");
  }

  /** Waits for the job to be done, noting whether the lane was ever seen paused. */
  private void awaitDone(String job, Duration atMost, AtomicBoolean everPaused) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> {
      if (lanePaused()) {
        everPaused.set(true);
      }
      return "done".equals(admin.job(job).getString("state"));
    });
  }

  private long chapterFolders(String series) throws Exception {
    try (Stream<Path> chapters = Files.list(data.resolve("library").resolve(series))) {
      return chapters.filter(p -> p.getFileName().toString().startsWith("chapter-")).count();
    }
  }

  /**
   * One-page chapters at pacing 0 against a server that counts at-home look-ups over a rolling window, the adapter
   * configured with the same window through its options. The lane could otherwise look up 2.4 a second, so the limit
   * binds in both variants, and the title crosses several windows: by default 40 chapters against 10 per rolling 5 s
   * (the adapter keeps to 9 per 6 s: about five windows in half a minute); in the nightly run 300 chapters against
   * 40 per rolling 20 s (MangaDex's own is 40 a minute: about eight windows in under three minutes).
   */
  @Test
  void aLongTitleAtPacingZeroStaysUnderARollingAtHomeWindowWithNoIncidentPauseOrRefusal() throws Exception {
    int chapters = Nightly.pick(40, 300);
    int limit = Nightly.pick(10, 40);
    int windowSeconds = Nightly.pick(5, 20);
    long windowMs = windowSeconds * 1_000L;
    FakeMangaDex.AtHomeWindow window = new FakeMangaDex.AtHomeWindow(limit, windowMs);
    serve(window);
    int feedPageSize = Nightly.pick(20, 100);
    FakeMangaDex.title(api, 30, "Many Nights", chapters, feedPageSize, FakeMangaDex.AtHomeWindow.NAME);
    startProduct(new JsonObject().put("feedPageSize", feedPageSize).put("atHomeLimit", limit)
        .put("atHomeWindowSeconds", windowSeconds));
    AtomicBoolean everPaused = new AtomicBoolean();

    long started = System.nanoTime();
    String job = add(30);
    awaitDone(job, Duration.ofMinutes(Nightly.pick(2, 6)), everPaused);
    System.out.println("[MangaDexRateIT] " + chapters + " chapters in "
        + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s");

    List<Long> atHome = journal(api).stream().filter(r -> path(r).startsWith("/at-home/server/"))
        .map(r -> r.getLoggedDate().getTime()).toList();
    System.out.println("[MangaDexRateIT] " + atHome.size() + " at-home look-ups, at most "
        + FakeMangaDex.mostWithin(atHome, windowMs) + " in any " + windowSeconds + " s; "
        + MangaDexApi.spacing(journal(api)));
    assertThat(chapterFolders("many-nights")).isEqualTo(chapters);
    assertThat(admin.job(job).getInteger("chaptersPublished")).isEqualTo(chapters);
    assertThat(admin.get("/api/admin/incidents").json().getJsonArray("incidents")).as("incidents").isEmpty();
    assertThat(everPaused).as("the lane was never paused").isFalse();
    assertThat(window.refused()).as("look-ups refused").isZero();
    assertThat(atHome).hasSize(chapters);
    assertThat(chapters).as("the title needs more than three windows' worth of look-ups").isGreaterThan(3 * limit);
    assertThat(FakeMangaDex.mostWithin(atHome, windowMs)).as("at-home look-ups in any rolling window")
        .isLessThanOrEqualTo(limit - 1);
    // We count 4 per 1.1 s when requests leave; WireMock stamps them when a busy test machine gets round to them, so
    // on arrival only MangaDex's own limit is asserted.
    assertThat(MangaDexApi.spacing(journal(api)).mostInOneSecond()).isLessThanOrEqualTo(5);
  }

  @Test
  void aServerStricterThanItsPublishedLimitIsLearnedFromIts429sAndTheTitleFinishesWithoutAPerson() throws Exception {
    // Two a rolling 0.8 s, counted as WireMock stamps arrivals: the adapter's first rate (4 a second) breaks it; once
    // halved (0.5 s apart) three arrivals span 1 s, so a request a busy machine delays by up to 0.2 s on its way in is
    // not counted as a third in one window (a one-second window, exactly the halved rate, turned any such delay into a
    // second 429 late in the title).
    FakeMangaDex.StricterLimit stricter = new FakeMangaDex.StricterLimit(2, 800);
    serve(stricter);
    FakeMangaDex.title(api, 31, "Two A Second", 8, 100);
    startProduct(new JsonObject().put("feedPageSize", 100));
    AtomicBoolean everPaused = new AtomicBoolean();

    String job = add(31);
    awaitDone(job, Duration.ofMinutes(2), everPaused);

    List<LoggedRequest> requests = journal(api);
    List<Long> refusals = stricter.refusals();
    System.out.println("[MangaDexRateIT] " + requests.size() + " requests, " + refusals.size() + " refused at "
        + refusals + "; " + MangaDexApi.spacing(requests));
    assertThat(chapterFolders("two-a-second")).isEqualTo(8);
    assertThat(everPaused).as("the lane was never paused").isFalse();
    assertThat(admin.get("/api/admin/incidents").json().getJsonArray("incidents")).isEmpty();
    assertThat(refusals).as("a few 429s, then the adapter keeps under the server's limit").isNotEmpty().hasSizeLessThanOrEqualTo(4);
    long lastRefusal = refusals.get(refusals.size() - 1);
    List<Long> after = requests.stream().map(r -> r.getLoggedDate().getTime()).filter(t -> t > lastRefusal).toList();
    assertThat(after).as("most of the title came after the last 429").hasSizeGreaterThanOrEqualTo(8);
    assertThat(MangaDexApi.mostWithin(after, 800)).as("within the server's limit since").isLessThanOrEqualTo(2);
    assertThat(admin.job(job).getInteger("attempts")).isZero();
  }
}
