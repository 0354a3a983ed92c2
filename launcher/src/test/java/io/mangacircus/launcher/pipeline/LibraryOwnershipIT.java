package io.mangacircus.launcher.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two sources ({@code demo} and {@code mirror}, both reading the demo site) with the same series title: each gets its
 * own series folder, a chapter folder that holds another title's chapter is neither counted as published nor
 * overwritten, and re-adding a finished title creates a new job that names the one it supersedes.
 */
class LibraryOwnershipIT {

  private static final String TOKEN = "ownership-admin-token-01";

  @TempDir
  Path data;

  @RegisterExtension
  final DemoSiteExtension demo = new DemoSiteExtension(Duration.ZERO);

  private LauncherHarness harness;
  private AdminApi admin;

  private void startProduct() {
    JsonObject demoSource = new JsonObject().put("type", "demo").put("baseUrl", demo.site().baseUrl())
        .put("pageDelayMs", 0).put("chapterDelayMs", 0);
    String config = new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN))
        .put("scraper", new JsonObject().put("claimPollMs", 50).put("recovery", new JsonObject().put("delayMs", 0))
            .put("sources", new JsonObject().put("demo", demoSource).put("mirror", demoSource.copy()))).encode();
    harness = new LauncherHarness(data, config).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
  }

  @AfterEach
  void stop() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private Answer add(String source, String title, boolean autoConfirm) {
    return admin.post("/api/admin/jobs", new JsonObject().put("source", source).put("title", title)
        .put("autoConfirm", autoConfirm));
  }

  private String added(String source, String title) {
    Answer added = add(source, title, true);
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    return added.json().getJsonObject("job").getString("id");
  }

  private static List<JsonObject> chapters(JsonObject job) {
    return job.getJsonArray("chapterList").stream().map(JsonObject.class::cast).toList();
  }

  private JsonObject chapterJson(String path) throws Exception {
    return new JsonObject(Files.readString(data.resolve("library").resolve(path).resolve("chapter.json")));
  }

  @Test
  void twoSourcesWithTheSameTitleGetTwoSeriesFoldersAndBothDownload() throws Exception {
    startProduct();

    JsonObject fromDemo = admin.awaitJobState(added("demo", "tightrope-walker"), "done");
    JsonObject fromMirror = admin.awaitJobState(added("mirror", "tightrope-walker"), "done");

    assertThat(fromDemo.getLong("chaptersPublished")).isEqualTo(3);
    assertThat(fromMirror.getLong("chaptersPublished")).isEqualTo(3);
    assertThat(demo.site().imageRequests()).as("each source fetched every page itself")
        .isEqualTo(2 * (10 + 14 + 20));
    for (String chapter : List.of("chapter-0001", "chapter-0002", "chapter-0003")) {
      assertThat(chapterJson("the-tightrope-walker/" + chapter).getString("source")).isEqualTo("demo");
      assertThat(chapterJson("the-tightrope-walker-mirror/" + chapter).getString("source")).isEqualTo("mirror");
    }
    assertThat(data.resolve("library/the-tightrope-walker-mirror/chapter-0003/020.png")).exists();
    assertThat(new JsonObject(Files.readString(data.resolve("library/the-tightrope-walker/.mangacircus-series.json")))
        .getString("source")).isEqualTo("demo");
  }

  @Test
  void aChapterFolderHoldingAnotherTitlesChapterIsNotCountedAsPublishedAndStaysUntouched() throws Exception {
    // A library as an earlier version left it: demo's chapter 1, and in its place for chapter 2 another source's.
    Path own = data.resolve("library/the-tightrope-walker/chapter-0001");
    Path foreign = data.resolve("library/the-tightrope-walker/chapter-0002");
    Files.createDirectories(own);
    Files.createDirectories(foreign);
    Files.writeString(own.resolve("chapter.json"), new JsonObject().put("schema", 1).put("source", "demo")
        .put("titleId", "tightrope-walker").put("series", "The Tightrope Walker").put("chapterId", "c1")
        .put("number", "1").put("fingerprint", "published-earlier").encodePrettily());
    String foreignJson = new JsonObject().put("schema", 1).put("source", "elsewhere").put("titleId", "tightrope-walker")
        .put("series", "The Tightrope Walker").put("chapterId", "c2").put("number", "2")
        .put("fingerprint", "not-ours").encodePrettily();
    Files.writeString(foreign.resolve("chapter.json"), foreignJson);
    startProduct();

    JsonObject done = admin.awaitJobState(added("demo", "tightrope-walker"), "done");

    List<JsonObject> chapters = chapters(done);
    assertThat(chapters).extracting(c -> c.getString("stage")).containsExactly("published", "failed", "published");
    assertThat(chapters.get(1).getString("reason")).startsWith("folder_taken: ")
        .contains("library/the-tightrope-walker/chapter-0002", "elsewhere/tightrope-walker chapter c2");
    assertThat(Files.readString(foreign.resolve("chapter.json"))).isEqualTo(foreignJson);
    try (var files = Files.list(foreign)) {
      assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("chapter.json");
    }
    assertThat(demo.site().imageRequests()).as("only chapter 3 was downloaded").isEqualTo(20);
    assertThat(chapterJson("the-tightrope-walker/chapter-0003").getString("chapterId")).isEqualTo("c3");
  }

  @Test
  void reAddingAFinishedTitleCreatesANewJobNamingTheSupersededOne() {
    startProduct();
    String first = added("demo", "tightrope-walker");
    admin.awaitJobState(first, "done");

    Answer again = add("demo", "tightrope-walker", false);

    assertThat(again.status()).as(again.body()).isEqualTo(201);
    assertThat(again.json().getBoolean("created")).isTrue();
    assertThat(again.json().getString("supersededJobId")).isEqualTo(first);
    String second = again.json().getJsonObject("job").getString("id");
    assertThat(second).isNotEqualTo(first);

    Answer outstanding = add("demo", "tightrope-walker", true);
    assertThat(outstanding.status()).as(outstanding.body()).isEqualTo(200);
    assertThat(outstanding.json().getBoolean("created")).isFalse();
    assertThat(outstanding.json().getString("supersededJobId")).isNull();
    assertThat(outstanding.json().getJsonObject("job").getString("id")).isEqualTo(second);
    assertThat(admin.get("/api/admin/jobs").json().getJsonArray("jobs").stream().map(JsonObject.class::cast)
        .map(j -> j.getString("id")).toList()).containsExactly(second);
  }
}
