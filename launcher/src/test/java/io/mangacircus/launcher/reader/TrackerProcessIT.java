package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.reader.trackers.MangaUpdatesFake;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tracker update of the real jar across a SIGKILL: requested while the tracker is down, kept in {@code reader.db},
 * delivered once by the next start; a sign-in the tracker stops taking told to its user at their own alert target; no
 * token or password in the log, {@code /metrics} or the notice.
 */
@Tag("process") @Tag("realtime")
class TrackerProcessIT {

  private static final String ADMIN_PASSWORD = "tracker-process-admin-password";
  private static final String METRICS_TOKEN = "tracker-process-metrics-token-0123456789";
  private static final String SESSION_TOKEN = "mu-session-secret-5f1c9a";
  private static final String MU_PASSWORD = "bruno's mu password";

  @TempDir
  Path work;

  private final MangaUpdatesFake mangaupdates = new MangaUpdatesFake();
  private final List<JarProcess> processes = new ArrayList<>();

  @AfterEach
  void stop() {
    processes.forEach(JarProcess::close);
    mangaupdates.close();
  }

  private JarProcess start(String... args) {
    JarProcess process = JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD), args);
    processes.add(process);
    return process;
  }

  private List<com.github.tomakehurst.wiremock.verification.LoggedRequest> hooks() {
    return mangaupdates.server().findAll(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
        com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/hook/admin")));
  }

  private static JsonObject link(ReaderSession session) {
    HttpResponse<String> answer = session.get("/api/series/moonlit/trackers");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body()).getJsonArray("trackers").getJsonObject(0).getJsonObject("link");
  }

  @Test
  void anUpdatePendingAtSigkillIsDeliveredOnceAfterTheRestartAndNoSecretIsLoggedOrMeasured() throws Exception {
    Path data = work.resolve("data");
    for (int chapter = 1; chapter <= 3; chapter++) {
      new LibraryFixture(data).chapter("moonlit", "Moonlit", chapter, 2, Instant.parse("2026-01-02T03:04:05Z"));
    }
    mangaupdates.logInAccepts("bruno-mu", MU_PASSWORD, SESSION_TOKEN, 77).profile(77, "bruno-on-mu").notListed(55)
        .acceptsSaves();
    Path conf = work.resolve("trackers.json");
    Files.writeString(conf, new JsonObject()
        .put("metrics", new JsonObject().put("token", METRICS_TOKEN))
        .put("notifications", new JsonObject().put("readerAlertAllowedHosts", new io.vertx.core.json.JsonArray()
            .add("127.0.0.1")))
        .put("reader", new JsonObject().put("trackers", new JsonObject().put("mangaupdates", new JsonObject()
            .put("enabled", true).put("apiUrl", mangaupdates.baseUrl()).put("requestsPerMinute", 600))))
        .encode());
    int port = FreePorts.next();
    String[] args = {"all", "--conf=" + conf, "--data=" + data, "--port=" + port,
        "--health-port=" + FreePorts.next()};
    JarProcess first = start(args);
    HttpProbe.awaitReady(port);
    ReaderSession admin = ReaderSession.login(port, "admin", ADMIN_PASSWORD);
    HttpResponse<String> signedIn = admin.post("/api/me/trackers/mangaupdates/login",
        new JsonObject().put("username", "bruno-mu").put("password", MU_PASSWORD));
    assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(200);
    HttpResponse<String> linked = admin.put("/api/series/moonlit/trackers/mangaupdates",
        new JsonObject().put("remoteId", "55"));
    assertThat(linked.statusCode()).as(linked.body()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(30)).until(() -> link(admin).getString("lastSyncAt") != null
        && !link(admin).getBoolean("pending"));

    mangaupdates.down();
    int before = mangaupdates.requestCount();
    HttpResponse<String> read = admin.put("/api/progress/moonlit", new JsonObject().put("chapter", "chapter-0002")
        .put("page", 2));
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(30)).until(() -> mangaupdates.requestCount() > before);
    assertThat(link(admin).getBoolean("pending")).isTrue();
    first.kill();
    assertThat(mangaupdates.savedProgress(55)).isEmpty();

    mangaupdates.recovered();
    JarProcess second = start(args);
    HttpProbe.awaitReady(port);
    await().atMost(Duration.ofSeconds(60)).until(() -> mangaupdates.savedProgress(55).equals(List.of(2)));
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6))
        .until(() -> mangaupdates.savedProgress(55).equals(List.of(2)));

    String metrics = HttpProbe.get(port, "/metrics", METRICS_TOKEN).body();
    assertThat(metrics).contains("mc_tracker_updates_total{outcome=\"delivered\",tracker=\"mangaupdates\"}")
        .contains("mc_tracker_pending{tracker=\"mangaupdates\"} 0.0");
    // MangaUpdates stops taking the session: the sign-in turns "needs sign-in again", the reading waits, and the user
    // is told once at their own alert target.
    mangaupdates.server().stubFor(com.github.tomakehurst.wiremock.client.WireMock.post(
        com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/hook/admin"))
        .willReturn(com.github.tomakehurst.wiremock.client.WireMock.ok()));
    ReaderSession again = ReaderSession.login(port, "admin", ADMIN_PASSWORD);
    HttpResponse<String> target = again.put("/api/me/alerts/target", new JsonObject().put("type", "webhook")
        .put("url", "http://127.0.0.1:" + mangaupdates.server().port() + "/hook/admin"));
    assertThat(target.statusCode()).as(target.body()).isEqualTo(200);
    mangaupdates.revoked();
    assertThat(again.put("/api/progress/moonlit", new JsonObject().put("chapter", "chapter-0003").put("page", 2))
        .statusCode()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(30)).until(() -> new JsonObject(again.get("/api/me/trackers").body())
        .getJsonArray("trackers").getJsonObject(0).getBoolean("needsSignIn"));
    await().atMost(Duration.ofSeconds(30)).until(() -> hooks().size() == 1);
    JsonObject notice = new JsonObject(hooks().get(0).getBodyAsString());
    assertThat(notice.getString("kind")).isEqualTo("account");
    assertThat(notice.getString("title")).isEqualTo("Sign in to MangaUpdates again");
    assertThat(link(again).getBoolean("pending")).as("the reading waits for the next sign-in").isTrue();

    for (String text : List.of(first.output(), second.output(), metrics, notice.encode())) {
      assertThat(text).doesNotContain(SESSION_TOKEN).doesNotContain(MU_PASSWORD);
    }
  }
}
