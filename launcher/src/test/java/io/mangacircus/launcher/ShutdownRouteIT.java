package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.scraper.demosite.DemoChapter;
import io.mangacircus.scraper.demosite.DemoSeries;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/system/shutdown} on the real jar: the process stops as on SIGTERM (exit 0, runtime files say
 * stopped), a download resumes after the restart without fetching validated pages again, only admins may call it,
 * and {@code scope=pair} in one JVM stops that process; in a daemon pair, {@link DaemonPairIT}.
 */
@Tag("process") @Tag("cluster") @Tag("realtime")
class ShutdownRouteIT {

  private static final String TOKEN = "shutdown-test-admin-token";
  private static final String ADMIN_PASSWORD = "shutdown-admin-pass";
  private static final String TITLE = "tightrope-walker";
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration GRACE = Duration.ofSeconds(30);

  @TempDir
  Path work;

  // Slow pages, so that the download is surely in progress when the stop is asked for: 44 pages at ~0.17 s.
  @RegisterExtension
  final DemoSiteExtension demo = new DemoSiteExtension(Duration.ofMillis(150));

  private Path demoConf() throws Exception {
    Path conf = work.resolve("demo.json");
    Files.writeString(conf, new JsonObject().put("scraper", demo.scraperConfig()).encode());
    return conf;
  }

  private JarProcess startAll(Path conf, int port) {
    Map<String, String> env = Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN, "MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD);
    SeededReaderDb.into(work.resolve("data"), SeededReaderDb.Account.admin(ADMIN_PASSWORD));
    return JarProcess.start(work, env, "all", "--conf=" + conf, "--data=" + work.resolve("data"), "--port=" + port,
        "--health-port=" + FreePorts.next());
  }

  /** The route as a script calls it: bearer token, no body and no content type. */
  private static HttpResponse<String> shutdownWithToken(int port, String query) {
    return ReaderSession.send(port, "POST", "/api/system/shutdown" + query, null, "Authorization", "Bearer " + TOKEN);
  }

  private static JsonObject job(AdminApi admin) {
    return admin.get("/api/admin/jobs").json().getJsonArray("jobs").getJsonObject(0);
  }

  @Test
  void theRouteStopsTheProcessLikeSigtermMidDownloadAndTheRestartResumesWithoutFetchingValidatedPagesAgain()
      throws Exception {
    Path conf = demoConf();
    int port = FreePorts.next();
    try (JarProcess process = startAll(conf, port)) {
      HttpProbe.awaitReady(port);
      AdminApi admin = new AdminApi(port, TOKEN);
      HttpProbe.Answer added = admin.post("/api/admin/jobs",
          new JsonObject().put("source", "demo").put("title", TITLE).put("autoConfirm", true));
      assertThat(added.status()).as(added.body()).isEqualTo(201);
      // Mid-download: the first chapter (10 pages) published, the second one (14 pages) part-way.
      await().atMost(START).pollInterval(Duration.ofMillis(50)).until(() -> {
        JsonObject job = job(admin);
        JsonObject progress = job.getJsonObject("progress");
        return job.getLong("chaptersPublished") >= 1 && progress != null && progress.getInteger("pages") == 14
            && progress.getInteger("page") >= 3;
      });
      assertThat(job(admin).getString("state")).isEqualTo("active");

      long before = System.nanoTime();
      HttpResponse<String> answer = shutdownWithToken(port, "");

      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
      assertThat(new JsonObject(answer.body())).isEqualTo(new JsonObject().put("stopping", true).put("scope", "process"));
      assertThat(process.waitForExit(GRACE)).as(process.output()).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(GRACE);
      assertThat(process.output()).contains("stop requested by the admin token over HTTP", "stopped cleanly");
    }
    assertThat(Files.readString(work.resolve("data/scraper/runtime.json"))).contains("\"status\" : \"stopped\"");
    assertThat(Files.readString(work.resolve("data/runtime-reader.json"))).contains("\"status\" : \"stopped\"");
    Map<String, Long> fetchedBeforeStop = pageRequests();
    long pagesBeforeStop = fetchedBeforeStop.values().stream().filter(n -> n > 0).count();
    assertThat(pagesBeforeStop).as("the stop came mid-download").isBetween(13L, 43L);

    int port2 = FreePorts.next();
    try (JarProcess again = startAll(conf, port2)) {
      HttpProbe.awaitReady(port2);
      AdminApi admin = new AdminApi(port2, TOKEN);
      await().atMost(START).pollInterval(Duration.ofMillis(200)).until(() -> "done".equals(job(admin).getString("state")));
      JsonObject done = job(admin);
      assertThat(done.getLong("chaptersPublished")).isEqualTo(3);
      assertThat(done.getInteger("attempts")).as("a requested stop consumes no attempt").isZero();
      again.terminate();
      assertThat(again.waitForExit(GRACE)).as(again.output()).isZero();
    }
    Map<String, Long> fetched = pageRequests();
    long refetched = fetched.values().stream().mapToLong(n -> n - 1).sum();
    assertThat(fetched.values()).as("every page fetched").allMatch(n -> n >= 1);
    // At most the page in flight at the stop, abandoned there, is fetched again.
    assertThat(refetched).as("pages fetched again after the restart: " + fetched).isLessThanOrEqualTo(1);
    assertThat(data("library/the-tightrope-walker/chapter-0003/020.png")).exists();
  }

  @Test
  void onlyAnAdminSessionWithItsCsrfTokenOrTheAdminTokenMayStopTheProcess() throws Exception {
    int port = FreePorts.next();
    try (JarProcess process = startAll(demoConf(), port)) {
      HttpProbe.awaitReady(port);
      ReaderSession admin = ReaderSession.login(port, "admin", ADMIN_PASSWORD);
      assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "kid")
          .put("password", "reader-pass-1").put("role", "reader")).statusCode()).isEqualTo(201);
      ReaderSession kid = ReaderSession.login(port, "kid", "reader-pass-1");

      assertThat(ReaderSession.send(port, "POST", "/api/system/shutdown", null).statusCode()).isEqualTo(401);
      assertThat(ReaderSession.send(port, "POST", "/api/system/shutdown", null, "Authorization", "Bearer wrong")
          .statusCode()).isEqualTo(401);
      assertThat(kid.post("/api/system/shutdown", null).statusCode()).as("a reader account").isEqualTo(403);
      assertThat(ReaderSession.send(port, "POST", "/api/system/shutdown", null, "Cookie", admin.cookie())
          .statusCode()).as("an admin session without its CSRF header").isEqualTo(403);
      assertThat(admin.post("/api/system/shutdown?scope=everything", null).statusCode()).isEqualTo(400);
      assertThat(process.isAlive()).isTrue();
      assertThat(HttpProbe.get(port, "/health/ready").status()).as("still serving").isEqualTo(200);

      HttpResponse<String> answer = admin.post("/api/system/shutdown", null);

      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
      assertThat(new JsonObject(answer.body()).getString("scope")).isEqualTo("process");
      assertThat(process.waitForExit(GRACE)).as(process.output()).isZero();
      assertThat(process.output()).contains("stop requested by 'admin' over HTTP", "stopped cleanly");
    }
    assertThat(Files.readString(work.resolve("data/runtime-reader.json"))).contains("\"status\" : \"stopped\"");
  }

  @Test
  void thePairScopeInOneJvmStopsThatOneProcess() throws Exception {
    int port = FreePorts.next();
    try (JarProcess process = startAll(demoConf(), port)) {
      HttpProbe.awaitReady(port);

      HttpResponse<String> answer = shutdownWithToken(port, "?scope=pair");

      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
      assertThat(new JsonObject(answer.body())).isEqualTo(new JsonObject().put("stopping", true).put("scope", "pair"));
      assertThat(process.waitForExit(GRACE)).as(process.output()).isZero();
      assertThat(process.output()).contains("stopped cleanly");
    }
  }

  private Path data(String relative) {
    return work.resolve("data").resolve(relative);
  }

  /** Requests the demo site saw for every page image of the title. */
  private Map<String, Long> pageRequests() {
    DemoSeries series = demo.catalog().series(TITLE).orElseThrow();
    Map<String, Long> requests = new HashMap<>();
    for (DemoChapter chapter : series.chapters().stream().filter(c -> c.language().equals("en")).toList()) {
      for (int page = 1; page <= chapter.pages(); page++) {
        String path = String.format(Locale.ROOT, "/img/%s/%s/%03d.%s", TITLE, chapter.id(), page,
            series.imageFormat());
        requests.put(path, demo.site().requests(path));
      }
    }
    return requests;
  }
}
