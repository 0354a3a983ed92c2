package io.mangacircus.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two reader processes and one scraper on the clustered event bus (loopback), both readers over one PostgreSQL
 * database (its password from the environment), each with its own data folder whose {@code library} is the scraper's
 * library (a symbolic link, as a shared read-only mount would be). Started together on the empty database, once for
 * the class, and taken through in order: a session made on A works on B, progress saved through A is read through B
 * at once, series merges and an admin's catalog edits made on A are served by B, failed logins spread over both
 * readers lock the client out on both, and B keeps serving the session after
 * A is killed with SIGKILL. A step that needs an earlier step's outcome says so.
 */
@TestInstance(Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
@Tag("process") @Tag("cluster")
class TwoReadersIT {

  private static final String ADMIN_PASSWORD = "two-readers-admin-pass";
  private static final String PASSWORD_ENV = "MC_TEST_READER_DB_PASSWORD";
  private static final String SERIES = "circus-nights";
  private static final String SIDE_STORY = "circus-nights-side-story";
  private static final Duration START = Duration.ofSeconds(90);

  private final List<JarProcess> processes = new ArrayList<>();
  private final int portA = FreePorts.next();
  private final int portB = FreePorts.next();
  private JarProcess readerA;
  private ReaderSession onA;
  private String chapter;

  @BeforeAll
  void start(@TempDir Path work) throws IOException {
    TestPostgres.Database database = TestPostgres.freshDatabase();
    Path scraperData = work.resolve("scraper-data");
    LibraryFixture library = new LibraryFixture(scraperData);
    chapter = library.chapter(SERIES, "Circus Nights", 1, 4, Instant.parse("2026-12-01T10:00:00Z"))
        .getFileName().toString();
    library.chapter(SIDE_STORY, "Circus Nights: Side Story", 1, 2, Instant.parse("2026-12-01T11:00:00Z"));

    String clusterName = "mc-test-" + UUID.randomUUID();
    int scraperCluster = FreePorts.next();
    int clusterA = FreePorts.next();
    int clusterB = FreePorts.next();
    JsonArray members = new JsonArray();
    for (int port : new int[] {scraperCluster, clusterA, clusterB}) {
      members.add("127.0.0.1:" + port);
    }
    JsonObject reader = new JsonObject().put("database", database.url()).put("databasePasswordEnv", PASSWORD_ENV);
    Map<String, String> readerEnv = Map.of("MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD,
        PASSWORD_ENV, database.password());

    processes.add(JarProcess.start(work, Map.of(), "scraper", "--cluster",
        "--conf=" + conf(work, "scraper", clusterName, scraperCluster, members, null), "--data=" + scraperData,
        "--health-port=" + FreePorts.next()));
    // Both readers at once on the empty database: one migrates it and makes the admin, the other finds them.
    readerA = JarProcess.start(work, readerEnv, "reader", "--cluster",
        "--conf=" + conf(work, "reader-a", clusterName, clusterA, members, reader),
        "--data=" + readerData(work, "reader-a", library.library()), "--port=" + portA);
    processes.add(readerA);
    processes.add(JarProcess.start(work, readerEnv, "reader", "--cluster",
        "--conf=" + conf(work, "reader-b", clusterName, clusterB, members, reader),
        "--data=" + readerData(work, "reader-b", library.library()), "--port=" + portB));

    for (int port : new int[] {portA, portB}) {
      await().atMost(START).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
          assertThat(HttpProbe.get(port, "/health/ready").status()).as("readiness of the reader on %d; outputs:%n%s",
              port, outputs()).isEqualTo(200));
    }
  }

  @AfterAll
  void stop() {
    processes.forEach(JarProcess::close);
  }

  private static Path conf(Path work, String name, String clusterName, int port, JsonArray members,
      JsonObject reader) throws IOException {
    JsonObject conf = new JsonObject().put("cluster", new JsonObject().put("name", clusterName).put("port", port)
        .put("members", members));
    if (reader != null) {
      conf.put("reader", reader);
    }
    Path file = work.resolve(name + ".json");
    Files.writeString(file, conf.encode());
    return file;
  }

  /** A reader's own data folder, whose {@code library} is the scraper's library. */
  private static Path readerData(Path work, String name, Path library) throws IOException {
    Path data = Files.createDirectories(work.resolve(name + "-data"));
    Files.createSymbolicLink(data.resolve("library"), library);
    return data;
  }

  private String outputs() {
    StringBuilder all = new StringBuilder();
    processes.forEach(p -> all.append("---- ").append(p).append('\n').append(p.output()).append('\n'));
    return all.toString();
  }

  private static HttpResponse<String> me(int port, String cookie) {
    return ReaderSession.send(port, "GET", "/api/me", null, "Cookie", cookie);
  }

  private static HttpResponse<String> login(int port, String username, String password) {
    return ReaderSession.send(port, "POST", "/api/login",
        new JsonObject().put("username", username).put("password", password).encode());
  }

  private ReaderSession sessionOnA() {
    assertThat(onA).as("the session made on reader A (an earlier step)").isNotNull();
    return onA;
  }

  @Test
  @Order(1)
  void aSessionMadeOnOneReaderIsAcceptedByTheOther() {
    onA = ReaderSession.login(portA, "admin", ADMIN_PASSWORD);

    HttpResponse<String> onB = me(portB, onA.cookie());

    assertThat(onB.statusCode()).as(onB.body()).isEqualTo(200);
    assertThat(new JsonObject(onB.body()).getString("username")).isEqualTo("admin");
  }

  @Test
  @Order(2)
  void progressSavedThroughOneReaderIsReadThroughTheOtherAtOnce() {
    HttpResponse<String> saved = sessionOnA().put("/api/progress/" + SERIES,
        new JsonObject().put("chapter", chapter).put("page", 3));
    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);

    HttpResponse<String> read = ReaderSession.send(portB, "GET", "/api/progress", null, "Cookie", onA.cookie());

    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    JsonArray progress = new JsonObject(read.body()).getJsonArray("progress");
    assertThat(progress).as(read.body()).hasSize(1);
    assertThat(progress.getJsonObject(0).getString("chapter")).isEqualTo(chapter);
    assertThat(progress.getJsonObject(0).getInteger("page")).isEqualTo(3);
  }

  @Test
  @Order(3)
  void aSeriesMergeAndUnmergeOnOneReaderAreSeenOnTheOtherAtOnce() {
    String cookie = sessionOnA().cookie();
    HttpResponse<String> merged = sessionOnA().post("/api/admin/series/" + SIDE_STORY + "/merge",
        new JsonObject().put("into", SERIES));
    assertThat(merged.statusCode()).as(merged.body()).isEqualTo(200);

    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(new JsonObject(ReaderSession.send(portB,
        "GET", "/api/admin/series/merges", null, "Cookie", cookie).body()).getJsonArray("merges")).as("on B")
        .hasSize(1));

    HttpResponse<String> unmerged = sessionOnA().delete("/api/admin/series/" + SIDE_STORY + "/merge");
    assertThat(unmerged.statusCode()).as(unmerged.body()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(new JsonObject(ReaderSession.send(portB,
        "GET", "/api/admin/series/merges", null, "Cookie", cookie).body()).getJsonArray("merges")).as("on B")
        .isEmpty());
  }

  @Test
  @Order(4)
  void anAdminsCatalogEditsOnOneReaderAreServedByTheOther() {
    ReaderSession onB = ReaderSession.login(portB, "admin", ADMIN_PASSWORD);
    byte[] cover = LibraryFixture.png("cover");

    HttpResponse<String> described = sessionOnA().put("/api/admin/catalog/series/" + SERIES,
        new JsonObject().put("description", "Edited on A."));
    assertThat(described.statusCode()).as(described.body()).isEqualTo(200);
    assertThat(sessionOnA().put("/api/admin/catalog/collections/shelf", new JsonObject().put("name", "Shelf")
        .put("series", new JsonArray().add(SERIES))).statusCode()).isEqualTo(200);
    assertThat(sessionOnA().putBytes("/api/admin/catalog/collections/shelf/cover", "image/png", cover).statusCode())
        .isEqualTo(200);

    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      JsonObject catalog = new JsonObject(onB.get("/api/catalog").body());
      assertThat(catalog.getJsonObject("series").getJsonObject(SERIES, new JsonObject()).getString("description"))
          .as("on B").isEqualTo("Edited on A.");
      assertThat(catalog.getJsonArray("collections")).as("on B").hasSize(1);
      assertThat(catalog.getJsonArray("collections").getJsonObject(0).getString("cover")).as("on B").isNotNull();
    });
    assertThat(new JsonObject(onB.get("/api/series/" + SERIES).body()).getString("description"))
        .isEqualTo("Edited on A.");
    assertThat(onB.bytes("/api/catalog/collections/shelf/cover").body()).as("the cover through B").isEqualTo(cover);
  }

  @Test
  @Order(5)
  void fiveFailedLoginsSpreadOverBothReadersLockTheClientOutOnEither() {
    for (int i = 0; i < 5; i++) {
      int port = i % 2 == 0 ? portA : portB;
      HttpResponse<String> failed = login(port, "mallory", "not-the-password-" + i);
      assertThat(failed.statusCode()).as("failed login %d on %s: %s", i + 1, port == portA ? "A" : "B",
          failed.body()).isEqualTo(401);
    }

    for (int port : new int[] {portB, portA}) {
      HttpResponse<String> sixth = login(port, "mallory", "not-the-password-6");
      assertThat(sixth.statusCode()).as("the sixth on %s: %s", port == portA ? "A" : "B", sixth.body())
          .isEqualTo(429);
      assertThat(sixth.headers().firstValue("Retry-After")).isPresent();
    }
  }

  @Test
  @Order(6)
  void theOtherReaderKeepsServingTheSessionAfterOneIsKilled() {
    String cookie = sessionOnA().cookie();
    readerA.kill();
    assertThat(readerA.isAlive()).isFalse();

    HttpResponse<String> me = me(portB, cookie);
    HttpResponse<String> progress = ReaderSession.send(portB, "GET", "/api/progress", null, "Cookie", cookie);
    HttpResponse<String> page = ReaderSession.send(portB, "GET", "/api/series/" + SERIES + "/chapters/" + chapter
        + "/pages/1", null, "Cookie", cookie);

    assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
    assertThat(new JsonObject(progress.body()).getJsonArray("progress").getJsonObject(0).getInteger("page"))
        .isEqualTo(3);
    assertThat(page.statusCode()).as("a page image through B").isEqualTo(200);
  }
}
