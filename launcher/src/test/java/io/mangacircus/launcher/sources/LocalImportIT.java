package io.mangacircus.launcher.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local import through the real pipeline: CBZ archives and image folders become published chapters. */
class LocalImportIT {

  private static final String TOKEN = "local-import-token-01234";

  @TempDir
  Path data;

  @TempDir
  Path imports;

  private LauncherHarness harness;
  private AdminApi admin;

  @BeforeEach
  void start() throws IOException {
    Path good = Files.createDirectories(imports.resolve("Good Series"));
    cbz(good.resolve("Good Series - Chapter 2.cbz"), "Good 2", 3);
    cbz(good.resolve("Good Series - Chapter 10.cbz"), "Good 10", 2);
    Path folderChapter = Files.createDirectories(good.resolve("Chapter 1"));
    for (int page = 1; page <= 2; page++) {
      Files.write(folderChapter.resolve(page + ".png"), LibraryFixture.png("Good 1 / " + page));
    }
    Files.writeString(folderChapter.resolve("notes.txt"), "not a page");
    Path broken = Files.createDirectories(imports.resolve("Broken Series"));
    Files.write(broken.resolve("Chapter 1.cbz"), "PK\u0003\u0004 this archive was cut short".getBytes());
    Path disguised = Files.createDirectories(imports.resolve("Disguised Series"));
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(disguised.resolve("Chapter 1.cbz")))) {
      zip.putNextEntry(new ZipEntry("001.jpg"));
      zip.write("<html><body>an error page saved as a jpg</body></html>".getBytes());
      zip.closeEntry();
    }

    JsonObject scraper = new JsonObject().put("autoConfirm", true).put("claimPollMs", 100)
        .put("recovery", new JsonObject().put("delayMs", 0))
        .put("sources", new JsonObject().put("local", new JsonObject().put("type", "local")
            .put("pageDelayMs", 0).put("chapterDelayMs", 0)
            .put("options", new JsonObject().put("folder", imports.toString()))));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject().put("adminToken", TOKEN))
        .put("scraper", scraper).encode()).startStandard(Mode.ALL);
    admin = new AdminApi(harness.port(), TOKEN);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private static void cbz(Path file, String caption, int pages) throws IOException {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("__MACOSX/._001.png"));
      zip.write(new byte[] {0, 5, 22, 7});
      zip.closeEntry();
      for (int page = pages; page >= 1; page--) {
        zip.putNextEntry(new ZipEntry("pages/" + page + ".png"));
        zip.write(LibraryFixture.png(caption + " / " + page));
        zip.closeEntry();
      }
    }
  }

  private String add(String title) {
    await().atMost(Duration.ofSeconds(20)).until(() -> admin.get("/api/admin/lanes").status() == 200);
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", "local").put("title", title)
        .put("autoConfirm", true));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    return added.json().getJsonObject("job").getString("id");
  }

  @Test
  void archivesAndImageFoldersArePublishedAndACorruptArchiveIsQuarantinedAlone() throws Exception {
    String broken = add("Broken Series");
    String disguised = add("Disguised Series");
    String good = add("Good Series");

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> "done".equals(admin.job(good).getString("state")));
    await().atMost(Duration.ofSeconds(30)).until(() -> "quarantined".equals(admin.job(broken).getString("state")));
    await().atMost(Duration.ofSeconds(30)).until(() -> "quarantined".equals(admin.job(disguised).getString("state")));

    assertThat(admin.job(broken).getString("reason")).contains("Chapter 1.cbz");
    Path series = data.resolve("library/good-series");
    assertThat(series.resolve("chapter-0001")).isDirectory();
    assertThat(series.resolve("chapter-0002")).isDirectory();
    assertThat(series.resolve("chapter-0010")).isDirectory();
    JsonObject chapter2 = new JsonObject(Files.readString(series.resolve("chapter-0002/chapter.json")));
    assertThat(chapter2.getJsonArray("pages")).as("the __MACOSX entry is not a page").hasSize(3);
    assertThat(chapter2.getString("source")).isEqualTo("local");
    try (var files = Files.list(series.resolve("chapter-0002"))) {
      byte[] first = Files.readAllBytes(files.filter(p -> p.getFileName().toString().startsWith("001")).findFirst()
          .orElseThrow());
      assertThat(first).as("pages keep natural order: 1 before 2 and 3").isEqualTo(LibraryFixture.png("Good 2 / 1"));
    }
    assertThat(new JsonObject(Files.readString(series.resolve("chapter-0001/chapter.json"))).getJsonArray("pages"))
        .as("notes.txt in an image folder is not a page").hasSize(2);
    assertThat(data.resolve("library/broken-series")).doesNotExist();
    assertThat(imports.resolve("Broken Series/Chapter 1.cbz")).as("the import folder is never changed").exists();
  }

  @Test
  void aTitleOutsideTheImportFolderIsNotFound() {
    String escape = add("../" + data.getFileName());

    await().atMost(Duration.ofSeconds(30)).until(() -> "unavailable".equals(admin.job(escape).getString("state")));
  }
}
