package io.mangacircus.launcher.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery on the real scraper: followed titles are looked at again and only their new chapters are fetched; titles
 * already in the library when the scraper first starts without a follows file are followed once.
 */
class DiscoveryIT {

  private static final String TOKEN = "discovery-token-01234567";
  private static final String METRICS_TOKEN = "discovery-metrics-012345";

  @TempDir
  Path data;

  @TempDir
  Path imports;

  private LauncherHarness harness;
  private AdminApi admin;

  @BeforeEach
  void start() throws Exception {
    Path good = Files.createDirectories(imports.resolve("Good Series"));
    for (int chapter = 1; chapter <= 2; chapter++) {
      imageFolder(good.resolve("Chapter " + chapter), "Good " + chapter);
    }
    Files.createDirectories(imports.resolve("Broken Series"));
    Files.write(imports.resolve("Broken Series/Chapter 1.cbz"), "not a zip".getBytes());
    new LibraryFixture(data).chapter("elsewhere", "From Elsewhere", 1, 1, Instant.parse("2026-11-01T00:00:00Z"));
    JsonObject scraper = new JsonObject().put("autoConfirm", true).put("claimPollMs", 100)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("discovery", new JsonObject().put("enabled", false).put("time", "03:30"))
        .put("sources", new JsonObject().put("local", new JsonObject().put("type", "local")
            .put("pageDelayMs", 0).put("chapterDelayMs", 0)
            .put("options", new JsonObject().put("folder", imports.toString()))));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN))
        .put("metrics", new JsonObject().put("token", METRICS_TOKEN))
        .put("scraper", scraper).encode()).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
    await().atMost(Duration.ofSeconds(20)).until(() -> admin.get("/api/admin/lanes").status() == 200);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private static void imageFolder(Path folder, String caption) throws Exception {
    Files.createDirectories(folder);
    for (int page = 1; page <= 2; page++) {
      Files.write(folder.resolve(page + ".png"), LibraryFixture.png(caption + " / " + page));
    }
  }

  private String add(String title) {
    return add(title, true);
  }

  private String add(String title, boolean follow) {
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", "local").put("title", title)
        .put("follow", follow));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    return added.json().getJsonObject("job").getString("id");
  }

  private List<JsonObject> jobs() {
    return admin.get("/api/admin/jobs").json().getJsonArray("jobs").stream().map(JsonObject.class::cast).toList();
  }

  private String state(String id) {
    return jobs().stream().filter(j -> j.getString("id").equals(id)).findFirst().map(j -> j.getString("state"))
        .orElse("gone");
  }

  @Test
  void aRunQueuesLibraryTitlesFetchesOnlyNewChaptersAndSkipsQuarantinedOnes() throws Exception {
    String first = add("Good Series");
    String broken = add("Broken Series");
    await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(state(first)));
    await().atMost(Duration.ofSeconds(30)).until(() -> "quarantined".equals(state(broken)));
    imageFolder(imports.resolve("Good Series/Chapter 3"), "Good 3");
    long eventsBefore = Files.readAllLines(data.resolve("scraper/events.log")).size();

    Answer run = admin.post("/api/admin/discovery/run", new JsonObject());

    assertThat(run.status()).as(run.body()).isEqualTo(200);
    JsonObject result = run.json().getJsonObject("run");
    assertThat(result.getJsonArray("queued")).singleElement().asString().endsWith("local/Good Series");
    assertThat(result.getJsonArray("skipped").stream().map(s -> ((JsonObject) s).getString("reason")))
        .anySatisfy(r -> assertThat(r).contains("source 'fixture' is not configured"));
    String rediscovered = result.getJsonArray("queued").getString(0).split(" ")[0];
    await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(state(rediscovered)));
    assertThat(data.resolve("library/good-series/chapter-0003/chapter.json")).exists();
    assertThat(jobs()).as("the new job supersedes the finished one; the quarantined one stays")
        .extracting(j -> j.getString("id")).containsExactlyInAnyOrder(rediscovered, broken);

    List<JsonObject> events = Files.readAllLines(data.resolve("scraper/events.log")).stream()
        .skip(eventsBefore).map(JsonObject::new).toList();
    assertThat(events).anySatisfy(e -> assertThat(e.getString("type")).isEqualTo("discovery"));
    assertThat(events.stream().filter(e -> "chapter.stage".equals(e.getString("type"))
        && "fetching".equals(e.getString("to"))).map(e -> e.getString("number")))
        .as("only the new chapter is fetched").containsExactly("3");

    JsonObject coverage = admin.get("/api/admin/lanes").json().getJsonArray("lanes").getJsonObject(0)
        .getJsonObject("coverage");
    assertThat(coverage.getLong("titles")).isEqualTo(2);
    assertThat(coverage.getLong("chaptersPublished")).isEqualTo(3);
    assertThat(coverage.getString("lastContactAt")).isNotNull();
    String metrics = io.mangacircus.launcher.testing.HttpProbe.get(harness.port(), "/metrics", METRICS_TOKEN).body();
    assertThat(metrics).contains("mc_source_titles{source=\"local\"} 2.0")
        .containsPattern("mc_source_last_contact_seconds\\{source=\"local\"\\} [0-9.]+E9");
    Files.write(imports.resolve("Good Series/Chapter 4.cbz"), "a damaged download".getBytes());
    Answer damaged = admin.post("/api/admin/discovery/run", new JsonObject());
    String damagedJob = damaged.json().getJsonObject("run").getJsonArray("queued").getString(0).split(" ")[0];
    await().atMost(Duration.ofSeconds(30)).until(() -> "quarantined".equals(state(damagedJob)));
    Answer again = admin.post("/api/admin/discovery/run", new JsonObject());
    assertThat(again.json().getJsonObject("run").getJsonArray("queued")).isEmpty();
    assertThat(again.json().getJsonObject("run").getJsonArray("skipped").encode())
        .as("a quarantined title is never queued twice").contains(damagedJob + " is quarantined");
  }

  @Test
  void aRunChecksFollowedTitlesOnlyAndTheLibrarysTitlesWereFollowedOnTheFirstStart() throws Exception {
    String unfollowed = add("Good Series", false);
    await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(state(unfollowed)));
    imageFolder(imports.resolve("Good Series/Chapter 3"), "Good 3");

    Answer run = admin.post("/api/admin/discovery/run", new JsonObject());

    JsonObject result = run.json().getJsonObject("run");
    assertThat(result.getJsonArray("queued")).as("Good Series is not followed").isEmpty();
    assertThat(result.getInteger("titles")).as("only the library's title of the first start").isEqualTo(1);
    assertThat(new JsonObject(readQuietly(data.resolve("scraper/follows.json"))).getJsonArray("titles").stream()
        .map(t -> ((JsonObject) t).getString("titleId"))).containsExactly("elsewhere");
    assertThat(data.resolve("library/good-series/chapter-0003")).doesNotExist();
  }

  @Test
  void theOperatorTurnsDiscoveryOnAndMovesItsTimeAndTheChoiceSurvivesARestart() {
    assertThat(admin.get("/api/admin/discovery").json().getBoolean("enabled")).isFalse();

    Answer set = admin.put("/api/admin/discovery", new JsonObject().put("enabled", true).put("time", "04:15"));

    assertThat(set.status()).as(set.body()).isEqualTo(200);
    assertThat(set.json().getString("nextRunAt")).isNotNull();
    assertThat(admin.put("/api/admin/discovery", new JsonObject().put("time", "25:00")).status()).isEqualTo(400);
    assertThat(Files.exists(data.resolve("scraper/discovery.json"))).isTrue();
    assertThat(new JsonObject(readQuietly(data.resolve("scraper/discovery.json"))).getString("time"))
        .isEqualTo("04:15");
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
