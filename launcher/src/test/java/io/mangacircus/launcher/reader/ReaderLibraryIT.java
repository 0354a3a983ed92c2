package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader's library on the real service: series, chapters, pages, progress, read marks, users and catalog. */
class ReaderLibraryIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  Path data;

  private LauncherHarness harness;
  private ReaderSession admin;

  @BeforeEach
  void start() {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter(SERIES, "Circus Nights", 1, 3, PUBLISHED);
    library.chapter(SERIES, "Circus Nights", 2, 4, PUBLISHED.plusSeconds(60));
    library.chapter(SERIES, "Circus Nights", 10, 2, PUBLISHED.plusSeconds(120));
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
    admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private ReaderSession newReader(String name) {
    HttpResponse<String> created = admin.post("/api/admin/users", new JsonObject().put("username", name)
        .put("password", name + "-password").put("role", "reader"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return ReaderSession.login(harness.port(), name, name + "-password");
  }

  @Test
  void aSeriesListsItsChaptersInNumberOrderWithNeighboursAndPageUrls() {
    JsonObject series = new JsonObject(admin.get("/api/series/" + SERIES).body());

    assertThat(series.getString("title")).isEqualTo("Circus Nights");
    JsonArray chapters = series.getJsonArray("chapters");
    assertThat(chapters.stream().map(c -> ((JsonObject) c).getString("id")))
        .as("10 comes after 2: numbers sort as numbers").containsExactly("chapter-0001", "chapter-0002", "chapter-0010");
    assertThat(chapters.getJsonObject(1).getInteger("pages")).isEqualTo(4);
    assertThat(chapters.getJsonObject(0).getString("state")).isEqualTo("unread");

    JsonObject chapter = new JsonObject(admin.get("/api/series/" + SERIES + "/chapters/chapter-0002").body());
    assertThat(chapter.getString("previous")).isEqualTo("chapter-0001");
    assertThat(chapter.getString("next")).isEqualTo("chapter-0010");
    assertThat(chapter.getJsonArray("pages")).hasSize(4)
        .contains("/api/series/circus-nights/chapters/chapter-0002/pages/1");
    assertThat(admin.get("/api/series/no-such-series").statusCode()).isEqualTo(404);
    assertThat(admin.get("/api/series/" + SERIES + "/chapters/chapter-0099").statusCode()).isEqualTo(404);
  }

  @Test
  void pagesAreTheFilesWithValidatorsAndALongCacheLifetime() throws Exception {
    HttpResponse<byte[]> page = admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0002/pages/3");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).isEqualTo(Files.readAllBytes(data.resolve("library/circus-nights/chapter-0002/003.png")));
    assertThat(page.headers().firstValue("Content-Type")).hasValue("image/png");
    assertThat(page.headers().firstValue("Cache-Control")).hasValueSatisfying(v -> assertThat(v)
        .contains("max-age=31536000", "immutable", "private"));
    String etag = page.headers().firstValue("ETag").orElseThrow();
    assertThat(page.headers().firstValue("Last-Modified")).as("chapter 2's publishedAt")
        .hasValue("Fri, 20 Nov 2026 10:01:00 GMT");
    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0001/pages/3").headers()
        .firstValue("Last-Modified")).as("chapter 1's own date").hasValue("Fri, 20 Nov 2026 10:00:00 GMT");
    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0002/pages/3").headers()
        .firstValue("Last-Modified")).as("again").hasValue("Fri, 20 Nov 2026 10:01:00 GMT");
    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0002/pages/3", "If-Modified-Since",
        "Fri, 20 Nov 2026 10:01:00 GMT").statusCode()).isEqualTo(304);
    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0002/pages/3", "If-Modified-Since",
        "Fri, 20 Nov 2026 10:00:59 GMT").statusCode()).as("older than the chapter").isEqualTo(200);

    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0002/pages/3", "If-None-Match", etag)
        .statusCode()).isEqualTo(304);
    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0002/pages/2", "If-None-Match", etag)
        .statusCode()).as("another page has another tag").isEqualTo(200);
    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0002/pages/5").statusCode()).isEqualTo(404);
    assertThat(admin.bytes("/api/series/" + SERIES + "/cover").statusCode()).isEqualTo(200);
    assertThat(ReaderSession.send(harness.port(), "GET", "/api/series/" + SERIES + "/chapters/chapter-0002/pages/3",
        null).statusCode()).as("no session, no page").isEqualTo(401);
  }

  @Test
  void aPageFileThatVanishedAfterItsChapterWasReadIsA404InJson() throws Exception {
    String url = "/api/series/" + SERIES + "/chapters/chapter-0001/pages/2";
    assertThat(admin.bytes(url).statusCode()).as("reads and caches the chapter's manifest").isEqualTo(200);
    Files.delete(data.resolve("library/circus-nights/chapter-0001/002.png"));

    HttpResponse<byte[]> gone = admin.bytes(url);

    assertThat(gone.statusCode()).isEqualTo(404);
    assertThat(gone.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v)
        .startsWith("application/json"));
    assertThat(gone.headers().firstValue("ETag")).isEmpty();
    assertThat(gone.headers().firstValue("Cache-Control")).isEmpty();
    assertThat(new JsonObject(new String(gone.body(), java.nio.charset.StandardCharsets.UTF_8)).getString("error"))
        .isEqualTo("not_found");
    assertThat(admin.bytes("/api/series/" + SERIES + "/chapters/chapter-0001/pages/1").statusCode())
        .as("the other pages are still served").isEqualTo(200);
  }

  @Test
  void traversalAttemptsNeverReachFilesOutsideTheLibrary() throws Exception {
    Files.writeString(data.resolve("secret.txt"), "SECRET-CONTENT-42");
    Path outside = Files.createDirectories(data.resolve("outside/chapter-0001"));
    Files.copy(data.resolve("library/circus-nights/chapter-0001/chapter.json"), outside.resolve("chapter.json"));
    Files.copy(data.resolve("library/circus-nights/chapter-0001/001.png"), outside.resolve("001.png"));
    Files.copy(data.resolve("library/circus-nights/chapter-0001/002.png"), outside.resolve("002.png"));
    Files.copy(data.resolve("library/circus-nights/chapter-0001/003.png"), outside.resolve("003.png"));
    Files.createSymbolicLink(data.resolve("library/escape"), data.resolve("outside"));
    Path linked = Files.createDirectories(data.resolve("library/linked/chapter-0001"));
    Files.copy(outside.resolve("chapter.json"), linked.resolve("chapter.json"));
    Files.createSymbolicLink(linked.resolve("001.png"), data.resolve("secret.txt"));
    Files.copy(outside.resolve("002.png"), linked.resolve("002.png"));
    Files.copy(outside.resolve("003.png"), linked.resolve("003.png"));

    List<String> attempts = List.of(
        "/api/series/..%2F..%2Fsecret.txt/chapters/chapter-0001/pages/1",
        "/api/series/%2e%2e/chapters/chapter-0001/pages/1",
        "/api/series/.%2e/chapters/chapter-0001",
        "/api/series/circus-nights/chapters/..%2F..%2F..%2Fsecret.txt/pages/1",
        "/api/series/circus-nights/chapters/chapter-0001/pages/..%2F..%2Fsecret.txt",
        "/api/series/circus-nights%5C..%5C..%5Csecret.txt",
        "/api/series/escape/chapters/chapter-0001/pages/1",
        "/api/series/escape",
        "/api/series/linked/chapters/chapter-0001/pages/1",
        "/..%2Fsecret.txt",
        "/%2e%2e/%2e%2e/secret.txt");
    for (String attempt : attempts) {
      HttpResponse<String> answer = admin.get(attempt);
      assertThat(answer.statusCode()).as(attempt).isIn(400, 404);
      assertThat(answer.body()).as(attempt).doesNotContain("SECRET-CONTENT-42");
    }
  }

  @Test
  void progressIsPerUserAndReachingTheLastPageMarksTheChapterRead() {
    ReaderSession alice = newReader("alice");
    ReaderSession bob = newReader("bob");

    assertThat(alice.put("/api/progress/" + SERIES, new JsonObject().put("chapter", "chapter-0001").put("page", 3))
        .statusCode()).isEqualTo(200);
    HttpResponse<String> saved = alice.put("/api/progress/" + SERIES,
        new JsonObject().put("chapter", "chapter-0002").put("page", 2));
    assertThat(new JsonObject(saved.body()).getBoolean("chapterRead")).isFalse();

    JsonObject series = new JsonObject(alice.get("/api/series/" + SERIES).body());
    assertThat(series.getJsonObject("progress").getString("chapter")).isEqualTo("chapter-0002");
    assertThat(states(series)).containsExactly("read", "reading", "unread");
    assertThat(series.getJsonArray("chapters").getJsonObject(1).getInteger("page")).isEqualTo(2);
    assertThat(new JsonObject(alice.get("/api/series/" + SERIES + "/chapters/chapter-0002").body())
        .getInteger("savedPage")).isEqualTo(2);
    JsonArray continuing = new JsonObject(alice.get("/api/progress").body()).getJsonArray("progress");
    assertThat(continuing).hasSize(1);
    assertThat(continuing.getJsonObject(0).getString("seriesTitle")).isEqualTo("Circus Nights");
    assertThat(continuing.getJsonObject(0).getInteger("pages")).isEqualTo(4);

    JsonObject bobs = new JsonObject(bob.get("/api/series/" + SERIES).body());
    assertThat(bobs.getValue("progress")).as("bob has not read anything").isNull();
    assertThat(states(bobs)).containsExactly("unread", "unread", "unread");

    assertThat(alice.put("/api/series/" + SERIES + "/chapters/chapter-0001/read", new JsonObject().put("read", false))
        .statusCode()).isEqualTo(200);
    assertThat(bob.put("/api/series/" + SERIES + "/chapters/chapter-0010/read", new JsonObject().put("read", true))
        .statusCode()).isEqualTo(200);
    assertThat(states(new JsonObject(alice.get("/api/series/" + SERIES).body())))
        .containsExactly("unread", "reading", "unread");
    assertThat(states(new JsonObject(bob.get("/api/series/" + SERIES).body())))
        .containsExactly("unread", "unread", "read");

    assertThat(alice.put("/api/progress/" + SERIES, new JsonObject().put("chapter", "chapter-0002").put("page", 5))
        .statusCode()).as("past the last page").isEqualTo(400);
    assertThat(alice.put("/api/progress/" + SERIES, new JsonObject().put("chapter", "chapter-0007").put("page", 1))
        .statusCode()).isEqualTo(404);
    assertThat(alice.put("/api/progress/" + SERIES, new JsonObject().put("chapter", "../x").put("page", 1))
        .statusCode()).isEqualTo(400);
  }

  private static List<String> states(JsonObject series) {
    return series.getJsonArray("chapters").stream().map(c -> ((JsonObject) c).getString("state")).toList();
  }

  @Test
  void adminsCreateResetAndDisableUsersAndReadersCannot() {
    ReaderSession carol = newReader("carol");

    assertThat(carol.get("/api/admin/users").statusCode()).isEqualTo(403);
    assertThat(carol.post("/api/admin/users", new JsonObject().put("username", "mallory").put("password", "12345678"))
        .statusCode()).isEqualTo(403);
    JsonArray users = new JsonObject(admin.get("/api/admin/users").body()).getJsonArray("users");
    assertThat(users.stream().map(u -> ((JsonObject) u).getString("username"))).containsExactly("admin", "carol");
    assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "carol").put("password", "12345678"))
        .statusCode()).isEqualTo(409);
    assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "../x").put("password", "12345678"))
        .statusCode()).isEqualTo(400);
    assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "dave").put("password", "short"))
        .statusCode()).isEqualTo(400);

    assertThat(admin.put("/api/admin/users/carol/password", new JsonObject().put("password", "a-new-password"))
        .statusCode()).isEqualTo(204);
    assertThat(carol.get("/api/me").statusCode()).as("a reset ends the user's sessions").isEqualTo(401);
    ReaderSession carolAgain = ReaderSession.login(harness.port(), "carol", "a-new-password");

    HttpResponse<String> disabled = admin.put("/api/admin/users/carol/disabled", new JsonObject().put("disabled", true));
    assertThat(disabled.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(disabled.body()).getBoolean("disabled")).isTrue();
    assertThat(carolAgain.get("/api/me").statusCode()).as("disabling ends the user's sessions").isEqualTo(401);
    assertThat(ReaderSession.send(harness.port(), "POST", "/api/login", new JsonObject().put("username", "carol")
        .put("password", "a-new-password").encode()).statusCode()).isEqualTo(401);

    assertThat(admin.put("/api/admin/users/admin/disabled", new JsonObject().put("disabled", true)).statusCode())
        .as("an admin cannot lock themself out").isEqualTo(409);
    assertThat(admin.put("/api/admin/users/nobody/disabled", new JsonObject().put("disabled", true)).statusCode())
        .isEqualTo(404);
  }

  @Test
  void theLastEnabledAdminCannotBeDisabled() {
    HttpResponse<String> second = admin.post("/api/admin/users", new JsonObject().put("username", "root2")
        .put("password", "root2-password").put("role", "admin"));
    assertThat(second.statusCode()).isEqualTo(201);
    ReaderSession root2 = ReaderSession.login(harness.port(), "root2", "root2-password");

    assertThat(root2.put("/api/admin/users/admin/disabled", new JsonObject().put("disabled", true)).statusCode())
        .isEqualTo(200);
    assertThat(admin.get("/api/me").statusCode()).isEqualTo(401);
    HttpResponse<String> last = root2.put("/api/admin/users/root2/disabled", new JsonObject().put("disabled", true));
    assertThat(last.statusCode()).isEqualTo(409);
  }

  @Test
  void adminPagesSendStrangersToLoginAndRefuseReaders() {
    ReaderSession erin = newReader("erin");

    HttpResponse<String> stranger = ReaderSession.send(harness.port(), "GET", "/admin/users.html", null);
    assertThat(stranger.statusCode()).isEqualTo(302);
    assertThat(stranger.headers().firstValue("Location")).hasValue("/login.html?next=%2Fadmin%2Fusers.html");
    assertThat(erin.get("/admin/users.html").statusCode()).isEqualTo(403);
    HttpResponse<String> page = admin.get("/admin/users.html");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Cache-Control")).as("never kept for the next user").hasValue("no-store");
    assertThat(admin.get("/js/api.js").headers().firstValue("Cache-Control")).as("revalidated after upgrades")
        .hasValue("no-cache");
  }

  @Test
  void theCatalogKeepsSeriesMetadataCollectionsAndImageCoversOnly() throws Exception {
    ReaderSession frank = newReader("frank");
    assertThat(admin.put("/api/admin/catalog/series/" + SERIES, new JsonObject().put("description", "Under canvas.")
        .put("tags", new JsonArray().add("circus"))).statusCode()).isEqualTo(200);
    assertThat(admin.put("/api/admin/catalog/collections/favourites", new JsonObject().put("name", "Favourites")
        .put("series", new JsonArray().add(SERIES))).statusCode()).isEqualTo(200);
    byte[] cover = LibraryFixture.png("cover");

    assertThat(admin.putBytes("/api/admin/catalog/collections/favourites/cover", "image/png", cover).statusCode())
        .isEqualTo(200);
    assertThat(admin.putBytes("/api/admin/catalog/collections/favourites/cover", "image/png",
        "<html>not an image</html>".getBytes()).statusCode()).isEqualTo(400);
    byte[] truncated = java.util.Arrays.copyOf(cover, cover.length / 2);
    assertThat(admin.putBytes("/api/admin/catalog/collections/favourites/cover", "image/png", truncated).statusCode())
        .as("a PNG header is not enough: it must decode").isEqualTo(400);
    assertThat(frank.put("/api/admin/catalog/series/" + SERIES, new JsonObject().put("description", "x")).statusCode())
        .isEqualTo(403);

    JsonObject catalog = new JsonObject(frank.get("/api/catalog").body());
    assertThat(catalog.getJsonObject("series").getJsonObject(SERIES).getString("description")).isEqualTo("Under canvas.");
    JsonObject favourites = catalog.getJsonArray("collections").getJsonObject(0);
    assertThat(favourites.getJsonArray("series")).containsExactly(SERIES);
    assertThat(frank.bytes(favourites.getString("cover")).body()).isEqualTo(cover);
    assertThat(new JsonObject(frank.get("/api/series/" + SERIES).body()).getString("description"))
        .isEqualTo("Under canvas.");
    HttpResponse<byte[]> served = frank.bytes(favourites.getString("cover"));
    assertThat(served.headers().firstValue("Content-Type")).contains("image/png");
    assertThat(served.headers().firstValue("Cache-Control")).contains("private, max-age=300");
    assertThat(data.resolve("catalog.json")).as("the catalog is kept in reader.db").doesNotExist();
    assertThat(data.resolve("collection-covers")).doesNotExist();

    assertThat(admin.delete("/api/admin/catalog/collections/favourites").statusCode()).isEqualTo(204);
    assertThat(frank.bytes(favourites.getString("cover")).statusCode()).as("the cover went with it").isEqualTo(404);
  }
}
