package io.mangacircus.launcher.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.RouterSlot;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The real reader and scraper in one JVM against the demo site: the operator's API and the pipeline end to end. */
class DownloadPipelineIT {

  private static final String TOKEN = "pipeline-admin-token-012";

  @TempDir
  Path data;

  @RegisterExtension
  final DemoSiteExtension demo = new DemoSiteExtension(Duration.ZERO);

  private LauncherHarness harness;
  private AdminApi admin;

  private void startProduct(boolean withScraper) {
    String config = new JsonObject()
        .put("reader", new JsonObject().put("adminToken", TOKEN).put("initialAdminPassword", "pipeline-admin"))
        .put("supervision", new JsonObject().put("backoffInitialMs", 50).put("backoffMaxMs", 200))
        .put("scraper", new JsonObject().put("claimPollMs", 50).put("recovery", new JsonObject().put("delayMs", 0))
            .put("sources", new JsonObject().put("demo", new JsonObject().put("type", "demo")
                .put("baseUrl", demo.site().baseUrl()).put("pageDelayMs", 0).put("chapterDelayMs", 0)))).encode();
    harness = new LauncherHarness(data, config);
    if (withScraper) {
      harness.startStandard(Mode.ALL);
    } else {
      RouterSlot slot = new RouterSlot();
      harness.start(slot, harness.realReader(slot));
    }
    admin = new AdminApi(harness.port(), TOKEN);
  }

  @AfterEach
  void stop() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private JsonObject add(String title, boolean autoConfirm) {
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo").put("title", title)
        .put("autoConfirm", autoConfirm));
    assertThat(added.status()).as(added.body()).isIn(200, 201);
    return added.json().getJsonObject("job");
  }

  @Test
  void aTitleAddedByUrlIsInspectedWaitsForConfirmationThenDownloadsAndPublishes() throws Exception {
    startProduct(true);
    List<ChapterPublished> published = new CopyOnWriteArrayList<>();
    List<JobProgress> progress = new CopyOnWriteArrayList<>();
    harness.vertx().eventBus().consumer(Addresses.LIBRARY_PUBLISHED,
        m -> published.add(ChapterPublished.fromJson(m.body())));
    harness.vertx().eventBus().consumer(Addresses.SCRAPER_JOB_PROGRESS,
        m -> progress.add(JobProgress.fromJson(m.body())));

    Answer first = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo")
        .put("title", demo.site().baseUrl() + "/series/tightrope-walker").put("autoConfirm", false));
    assertThat(first.status()).isEqualTo(201);
    String id = first.json().getJsonObject("job").getString("id");
    Answer again = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo").put("title", "tightrope-walker"));
    assertThat(again.status()).as("the same outstanding title is not added twice").isEqualTo(200);
    assertThat(again.json().getJsonObject("job").getString("id")).isEqualTo(id);

    admin.awaitJobState(id, "ready");
    assertThat(demo.site().imageRequests()).as("inspection never downloads images").isZero();
    assertThat(admin.job(id).getInteger("chapters")).isEqualTo(3);

    assertThat(admin.post("/api/admin/jobs/" + id + "/confirm", null).status()).isEqualTo(200);
    admin.awaitJobState(id, "done");

    JsonObject done = admin.job(id);
    assertThat(done.getString("title")).isEqualTo("The Tightrope Walker");
    assertThat(done.getLong("chaptersPublished")).isEqualTo(3);
    await().atMost(Duration.ofSeconds(5)).until(() -> published.size() == 3);
    assertThat(published).extracting(ChapterPublished::pages).containsExactly(10, 14, 20);
    assertThat(published).extracting(ChapterPublished::path).containsExactly("the-tightrope-walker/chapter-0001",
        "the-tightrope-walker/chapter-0002", "the-tightrope-walker/chapter-0003");
    assertThat(progress).anySatisfy(p -> assertThat(p.page()).isEqualTo(14).matches(x -> p.pages() == 14));
    assertThat(data.resolve("library/the-tightrope-walker/chapter-0003/020.png")).exists();
    assertThat(demo.site().imageRequests()).as("every page fetched once").isEqualTo(44);

    // The reader lists the new series without a restart: a publication invalidates its inventory.
    String cookie = sessionCookie();
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      JsonObject library = new JsonObject(get("/api/series", cookie));
      return library.getJsonArray("series").size() == 1 && !"refreshing".equals(library.getString("libraryStatus"));
    });
    JsonObject library = new JsonObject(get("/api/series?q=tightrope", cookie));
    JsonObject series = library.getJsonArray("series").getJsonObject(0);
    assertThat(series.getString("title")).isEqualTo("The Tightrope Walker");
    assertThat(series.getInteger("chapters")).isEqualTo(3);
    assertThat(new JsonObject(get("/api/series?q=lion", cookie)).getJsonArray("series")).isEmpty();
  }

  private String sessionCookie() throws Exception {
    java.net.http.HttpResponse<String> login = java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_1_1).build().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://127.0.0.1:" + harness.port() + "/api/login"))
        .header("Content-Type", "application/json")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(new JsonObject().put("username", "admin")
            .put("password", "pipeline-admin").encode())).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(login.statusCode()).isEqualTo(200);
    String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  private String get(String path, String cookie) throws Exception {
    return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build()
        .send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + harness.port() + path))
            .header("Cookie", cookie).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
  }

  @Test
  void adminRoutesRefuseWithoutTheTokenAndExplainBadRequests() {
    startProduct(true);
    assertThat(new AdminApi(harness.port(), null).get("/api/admin/jobs").status()).isEqualTo(401);
    assertThat(new AdminApi(harness.port(), "wrong").get("/api/admin/jobs").status()).isEqualTo(401);

    Answer notJson = admin.post("/api/admin/jobs", null);
    assertThat(notJson.status()).isEqualTo(400);
    Answer unknownSource = admin.post("/api/admin/jobs", new JsonObject().put("source", "nowhere").put("title", "x"));
    assertThat(unknownSource.status()).isEqualTo(400);
    assertThat(unknownSource.json().getString("message")).contains("unknown source 'nowhere'");
    Answer noTitle = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo"));
    assertThat(noTitle.status()).isEqualTo(400);
    assertThat(noTitle.json().getString("message")).contains("'title'");
    assertThat(admin.post("/api/admin/jobs/j-nope/confirm", null).status()).isEqualTo(404);

    String id = add("circus-nights", false).getString("id");
    Answer resume = admin.post("/api/admin/jobs/" + id + "/resume", null);
    assertThat(resume.status()).isEqualTo(409);
    assertThat(resume.json().getString("error")).isEqualTo("illegal_transition");
    Answer badPacing = admin.put("/api/admin/lanes/demo/pacing", new JsonObject().put("pageDelayMs", -5));
    assertThat(badPacing.status()).isEqualTo(400);
  }

  @Test
  void anHtmlPageServedInsteadOfAnImageQuarantinesTheJobKeepsItsPagesAndARetryResumes() {
    startProduct(true);
    demo.faults().htmlInsteadOfImageNext("/img/tightrope-walker/c1/004.png", 1);
    String id = add("tightrope-walker", true).getString("id");

    admin.awaitJobState(id, "quarantined");
    JsonObject quarantined = admin.job(id);
    assertThat(quarantined.getString("reason")).contains("page 4", "not a valid image");
    assertThat(quarantined.getInteger("attempts")).isEqualTo(1);
    try (Stream<Path> staging = Files.list(data.resolve("library"))) {
      Path folder = staging.filter(p -> p.getFileName().toString().startsWith(".staging-mcscraper-resume-"))
          .findFirst().orElseThrow();
      assertThat(folder.resolve("003.png")).exists();
      assertThat(folder.resolve("004.png")).doesNotExist();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }

    assertThat(admin.post("/api/admin/jobs/" + id + "/retry", null).status()).isEqualTo(200);
    admin.awaitJobState(id, "done");
    assertThat(demo.site().requests("/img/tightrope-walker/c1/001.png")).as("validated pages are not fetched again")
        .isEqualTo(1);
    assertThat(demo.site().requests("/img/tightrope-walker/c1/004.png")).isEqualTo(2);
  }

  @Test
  void pausingTheLaneStopsItsJobAtTheNextCheckpointAndResumingFinishesIt() {
    startProduct(true);
    demo.faults().slowPages(Duration.ofMillis(50));
    String id = add("circus-nights", true).getString("id");
    await().atMost(Duration.ofSeconds(30)).until(() -> demo.site().imageRequests() >= 3);

    assertThat(admin.post("/api/admin/lanes/demo/pause", null).status()).isEqualTo(200);
    admin.awaitJobState(id, "pending");
    long requestsWhenPaused = demo.site().imageRequests();
    assertThat(admin.get("/api/admin/lanes").json().getJsonArray("lanes").getJsonObject(0).getBoolean("paused"))
        .isTrue();
    assertThat(admin.job(id).getInteger("attempts")).as("a paused lane consumes no attempt").isZero();

    Answer pacing = admin.put("/api/admin/lanes/demo/pacing", new JsonObject().put("pageDelayMs", 0)
        .put("chapterDelayMs", 0));
    assertThat(pacing.json().getJsonObject("lane").getLong("pageDelayMs")).isZero();
    assertThat(demo.site().imageRequests()).as("nothing is fetched while the lane is paused")
        .isLessThanOrEqualTo(requestsWhenPaused + 1);

    assertThat(admin.post("/api/admin/lanes/demo/resume", null).status()).isEqualTo(200);
    demo.faults().slowPages(Duration.ZERO);
    admin.awaitJobState(id, "done");
    assertThat(demo.site().imageRequests()).isEqualTo(64);
  }

  @Test
  void withTheScraperDownTheAdminApiSaysItIsUnreachable() {
    startProduct(false);

    Answer jobs = admin.get("/api/admin/jobs");

    assertThat(jobs.status()).isEqualTo(503);
    assertThat(jobs.json().getString("error")).isEqualTo("scraper_unreachable");
  }

  @Test
  void aQueueFileThatFailsToParseKeepsTheScraperFromStartingAndIsLeftAsItWas() throws Exception {
    Path queue = data.resolve("scraper/queue.json");
    Files.createDirectories(queue.getParent());
    Files.writeString(queue, "{\"schema\": 2, \"jobs\": [");
    startProduct(true);

    await().atMost(Duration.ofSeconds(30)).until(() ->
        "DOWN".equals(HttpProbe.get(harness.port(), "/health/ready").check("supervisor")));
    String blocked = HttpProbe.get(harness.port(), "/health/ready").checkData("supervisor").getJsonObject("blocked")
        .getString("scraper");
    assertThat(blocked).startsWith("corrupt state file " + queue).contains("not valid JSON");
    assertThat(Files.readString(queue)).isEqualTo("{\"schema\": 2, \"jobs\": [");
  }
}
