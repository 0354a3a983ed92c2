package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The library as the jar serves it: listing, counts and search follow the page-serving rule and say what they skipped
 * in the API and on the health page, and a restarted reader lists the library on its very first answer.
 */
@Tag("process") @Tag("browser")
class LibraryIntegrityIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");
  private static final Duration START = Duration.ofSeconds(60);

  @TempDir
  Path work;

  private Path data() {
    return work.resolve("data");
  }

  private JarProcess start(int port) {
    SeededReaderDb.into(data(), SeededReaderDb.Account.admin(ADMIN_PASSWORD));
    return JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD), "all", "--data=" + data(),
        "--port=" + port, "--health-port=" + FreePorts.next());
  }

  private static ReaderSession ready(JarProcess process, int port) {
    await().atMost(START).pollInterval(Duration.ofMillis(100)).until(() -> {
      assertThat(process.isAlive()).as(process.output()).isTrue();
      return HttpProbe.get(port, "/health/ready").status() == 200;
    });
    return ReaderSession.login(port, "admin", ADMIN_PASSWORD);
  }

  private static JsonObject json(ReaderSession session, String path) {
    var answer = session.get(path);
    assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(200);
    return new JsonObject(answer.body());
  }

  private static List<String> ids(JsonObject list) {
    return list.getJsonArray("series").stream().map(s -> ((JsonObject) s).getString("id")).toList();
  }

  private static boolean scanned(JsonObject list) {
    return List.of("ready", "updated").contains(list.getString("libraryStatus"));
  }

  private static int count(String text, String part) {
    Matcher m = Pattern.compile(Pattern.quote(part)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @Test
  void symlinksAndBrokenChaptersAreNeitherListedNorCountedAndAreReportedSkippedOnce() throws Exception {
    LibraryFixture library = new LibraryFixture(data());
    library.chapter(SERIES, "Circus Nights", 1, 2, PUBLISHED);
    library.chapter(SERIES, "Circus Nights", 2, 2, PUBLISHED.plusSeconds(60));
    Path corrupt = library.chapter(SERIES, "Circus Nights", 3, 2, PUBLISHED.plusSeconds(120));
    Files.writeString(corrupt.resolve("chapter.json"), "{\"series\": \"Circus Nights\", \"pages\": [");
    LibraryFixture elsewhere = new LibraryFixture(work.resolve("elsewhere"));
    Path evil = elsewhere.chapter("evil", "Evil Title From Outside", 1, 1, PUBLISHED).getParent();
    Path stolen = elsewhere.chapter("stolen", "Circus Nights", 9, 1, PUBLISHED);
    Path lib = data().resolve("library");
    Files.createSymbolicLink(lib.resolve("evilseries"), evil);
    Files.createSymbolicLink(lib.resolve(SERIES).resolve("chapter-0004"), stolen);
    Files.createSymbolicLink(lib.resolve(SERIES).resolve("chapter-0005"), lib.resolve(SERIES).resolve("chapter-0001"));

    int port = FreePorts.next();
    try (JarProcess process = start(port)) {
      ReaderSession admin = ready(process, port);
      await().atMost(Duration.ofSeconds(20)).until(() -> scanned(json(admin, "/api/series")));

      var raw = admin.get("/api/series");
      JsonObject list = new JsonObject(raw.body());
      assertThat(ids(list)).containsExactly(SERIES);
      assertThat(raw.body()).doesNotContain("Evil Title From Outside");
      int card = list.getJsonArray("series").getJsonObject(0).getInteger("chapters");
      JsonArray chapters = json(admin, "/api/series/" + SERIES).getJsonArray("chapters");
      assertThat(chapters.stream().map(c -> ((JsonObject) c).getString("id")))
          .containsExactly("chapter-0001", "chapter-0002");
      assertThat(card).as("the card counts what the series page shows").isEqualTo(chapters.size());
      assertThat(ids(json(admin, "/api/series?q=evil"))).as("search sees only the library").isEmpty();
      assertThat(admin.get("/api/series/evilseries").statusCode()).isEqualTo(404);
      assertThat(admin.get("/api/series/" + SERIES + "/chapters/chapter-0004").statusCode()).isEqualTo(404);
      assertThat(admin.get("/api/series/" + SERIES + "/chapters/chapter-0005").statusCode()).isEqualTo(404);
      assertThat(admin.bytes("/api/series/evilseries/cover").statusCode()).isEqualTo(404);

      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
        JsonObject skipped = json(admin, "/api/admin/status").getJsonObject("library").getJsonObject("skipped");
        assertThat(skipped).as("library.skipped in /api/admin/status").isNotNull();
        assertThat(skipped.getInteger("count")).isEqualTo(4);
        assertThat(skipped.getJsonArray("reasons").getList()).containsExactlyInAnyOrder(
            "evilseries: resolves outside the library",
            SERIES + "/chapter-0003: chapter.json is not valid JSON",
            SERIES + "/chapter-0004: resolves outside the library",
            SERIES + "/chapter-0005: is a symbolic link to another folder of the library (only real folders are "
                + "published)");
      });

      try (Browser browser = new Browser()) {
        WebDriver driver = browser.driver();
        WebDriverWait waiting = new WebDriverWait(driver, Duration.ofSeconds(15));
        driver.get("http://127.0.0.1:" + port + "/login.html?next=/admin/health.html");
        waiting.until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
        driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
        driver.findElement(By.id("login-button")).click();
        waiting.until(ExpectedConditions.textMatches(By.id("library-status"), Pattern.compile("4 skipped")));
        assertThat(driver.findElement(By.id("library-skipped")).getText()).contains(
            "evilseries: resolves outside the library", SERIES + "/chapter-0003: chapter.json is not valid JSON");
        browser.screenshot("health-library-skipped");
        assertThat(browser.cspViolations()).as("the page stayed within the Content-Security-Policy").isEmpty();
      }

      // A catalog edit invalidates the inventory: the next list comes from a second scan, which logs nothing new.
      String firstScan = json(admin, "/api/series").getString("scannedAt");
      assertThat(admin.put("/api/admin/catalog/series/" + SERIES, new JsonObject().put("description", "x"))
          .statusCode()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(20)).until(() -> {
        JsonObject again = json(admin, "/api/series");
        return scanned(again) && !firstScan.equals(again.getString("scannedAt"));
      });
      String output = process.output();
      assertThat(count(output, "skipped evilseries: resolves outside the library")).as(output).isEqualTo(1);
      assertThat(count(output, "skipped " + SERIES + "/chapter-0003: chapter.json is not valid JSON")).isEqualTo(1);
      assertThat(output).doesNotContain(work.resolve("elsewhere").toString());
    }
  }

  @Test
  void theFirstListAfterARestartAlreadyHoldsTheLibrary() throws Exception {
    LibraryFixture library = new LibraryFixture(data());
    library.chapter(SERIES, "Circus Nights", 1, 2, PUBLISHED);
    library.chapter(SERIES, "Circus Nights", 2, 2, PUBLISHED.plusSeconds(60));
    library.chapter("midnight-tent", "Midnight Tent", 1, 1, PUBLISHED);

    int port = FreePorts.next();
    try (JarProcess first = start(port)) {
      ReaderSession admin = ready(first, port);
      await().atMost(Duration.ofSeconds(20)).until(() -> scanned(json(admin, "/api/series")));
      first.terminate();
      assertThat(first.waitForExit(Duration.ofSeconds(30))).isZero();
    }
    int port2 = FreePorts.next();
    try (JarProcess second = start(port2)) {
      ReaderSession admin = ready(second, port2);
      JsonObject firstAnswer = json(admin, "/api/series");

      assertThat(ids(firstAnswer)).as("the very first answer: " + firstAnswer)
          .containsExactly(SERIES, "midnight-tent");
      assertThat(firstAnswer.getString("scannedAt")).isNotNull();
      second.terminate();
      assertThat(second.waitForExit(Duration.ofSeconds(30))).isZero();
    }
    Path kept = data().resolve("library-inventory.json");
    assertThat(kept).as("the reader keeps its last inventory").exists();
    assertThat(new JsonObject(Files.readString(kept)).getInteger("schema")).isEqualTo(1);

    // A kept inventory that does not parse is ignored and never overwritten: the first answer waits for the scan.
    Files.writeString(kept, "{\"schema\": 1, \"series\": [");
    int port3 = FreePorts.next();
    try (JarProcess third = start(port3)) {
      ReaderSession admin = ready(third, port3);
      JsonObject firstAnswer = json(admin, "/api/series");

      assertThat(ids(firstAnswer)).as("the very first answer: " + firstAnswer)
          .containsExactly(SERIES, "midnight-tent");
      await().atMost(Duration.ofSeconds(20)).until(() -> scanned(json(admin, "/api/series")));
      assertThat(Files.readString(kept)).isEqualTo("{\"schema\": 1, \"series\": [");
      assertThat(third.output()).contains("library-inventory.json does not parse");
    }
  }
}
