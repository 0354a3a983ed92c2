package io.mangacircus.launcher.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Publications reach the reader's list as events, one chapter at a time, without rescanning the library: 50 chapters
 * published while {@code GET /api/series} is polled grow the list chapter by chapter, and the library was scanned once
 * (at start), as {@code mc_library_scans_total} on {@code /metrics} shows; an operator's rescan is the second.
 */
class LibraryPublicationIT {

  private static final String TOKEN = "publication-token-012345";
  private static final String METRICS_TOKEN = "publication-metrics-0123";
  private static final String PASSWORD = "publication-admin-pass";
  private static final int CHAPTERS = 50;
  private static final Pattern SCANS = Pattern.compile("(?m)^mc_library_scans_total(?:\\{[^}]*})? (\\S+)$");

  @TempDir
  Path data;

  @TempDir
  Path imports;

  private LauncherHarness harness;

  @BeforeEach
  void start() throws Exception {
    Path series = Files.createDirectories(imports.resolve("Fifty Nights"));
    for (int chapter = 1; chapter <= CHAPTERS; chapter++) {
      Path folder = Files.createDirectories(series.resolve("Chapter " + chapter));
      Files.write(folder.resolve("1.png"), LibraryFixture.png("Fifty " + chapter));
    }
    JsonObject scraper = new JsonObject().put("autoConfirm", true).put("claimPollMs", 100)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("discovery", new JsonObject().put("enabled", false).put("time", "03:30"))
        .put("sources", new JsonObject().put("local", new JsonObject().put("type", "local")
            .put("pageDelayMs", 0).put("chapterDelayMs", 100)
            .put("options", new JsonObject().put("folder", imports.toString()))));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN)
            .put("initialAdminPassword", PASSWORD))
        .put("metrics", new JsonObject().put("token", METRICS_TOKEN))
        .put("scraper", scraper).encode()).startStandard(Mode.ALL);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private double scans() {
    String metrics = HttpProbe.get(harness.port(), "/metrics", METRICS_TOKEN).body();
    Matcher matcher = SCANS.matcher(metrics);
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : -1;
  }

  private static int chapters(ReaderSession session) {
    JsonArray list = new JsonObject(session.get("/api/series").body()).getJsonArray("series");
    return list.stream().map(JsonObject.class::cast).filter(s -> s.getString("id").equals("fifty-nights"))
        .mapToInt(s -> s.getInteger("chapters")).findFirst().orElse(0);
  }

  @Test
  void fiftyPublishedChaptersGrowTheListOneByOneWithOneScanAndAnOperatorRescanIsTheSecond() {
    AdminApi admin = new AdminApi(harness.port(), TOKEN);
    ReaderSession session = ReaderSession.login(harness.port(), "admin", PASSWORD);
    await().atMost(Duration.ofSeconds(20)).until(() -> admin.get("/api/admin/lanes").status() == 200);
    await().atMost(Duration.ofSeconds(20)).until(() -> scans() == 1.0);
    assertThat(chapters(session)).isZero();

    HttpProbe.Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", "local")
        .put("title", "Fifty Nights").put("autoConfirm", true));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    List<Integer> seen = new ArrayList<>();
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10)).until(() -> {
      int now = chapters(session);
      if (seen.isEmpty() || seen.get(seen.size() - 1) != now) {
        seen.add(now);
      }
      return now == CHAPTERS;
    });

    System.out.printf("[LibraryPublicationIT] counts seen while polling (%d distinct): %s%n", seen.size(), seen);
    assertThat(seen).as("the list only grows, never blanks").isSorted().doesNotHaveDuplicates();
    assertThat(seen.get(seen.size() - 1)).isEqualTo(CHAPTERS);
    assertThat(seen).as("it grew chapter by chapter, not in one jump").hasSizeGreaterThan(CHAPTERS / 5);
    assertThat(scans()).as("the library was scanned once, at start").isEqualTo(1.0);

    HttpResponse<String> withoutCsrf = ReaderSession.raw(harness.port(), "POST", "/api/admin/library/rescan", null,
        "Cookie", session.cookie());
    assertThat(withoutCsrf.statusCode()).isEqualTo(403);
    HttpProbe.Answer rescan = admin.post("/api/admin/library/rescan", new JsonObject());
    assertThat(rescan.status()).as(rescan.body()).isEqualTo(200);
    assertThat(rescan.json().getInteger("chapters")).isEqualTo(CHAPTERS);
    assertThat(rescan.json().getInteger("series")).isEqualTo(1);
    assertThat(scans()).as("the operator's rescan is the second").isEqualTo(2.0);
    assertThat(chapters(session)).isEqualTo(CHAPTERS);
  }
}
