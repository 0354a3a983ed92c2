package io.mangacircus.reader.library.collection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.reader.LibraryConfig;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.ReaderUnderTest.Session;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collection read in place through the reader's own routes: every good book page by page, byte for byte as it lies
 * in its archive or folder, stored and deflated pages alike; every bad one listed with its reason; nothing written
 * inside the collection; a restarted reader serving it from the index it kept under the data folder.
 */
class CollectionServingTest {

  @TempDir
  Path dir;

  @Test
  void everyGoodBookIsReadPageByPageAsItLiesAndNothingIsWrittenInTheCollection() throws Exception {
    CollectionFixture fixture = CollectionFixture.write(dir);
    String before = CollectionFixture.fingerprint(fixture.root) + CollectionFixture.fingerprint(fixture.outside);
    Path data = Files.createDirectories(dir.resolve("data"));
    Map<String, List<String>> served;
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data, List.of(comics(fixture.root)))) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      JsonArray series = collectionSeries(reader, admin, 5);
      served = pages(reader, admin, series);
      assertThat(served).containsExactly(
          Map.entry("Alpha/Alpha v1", List.of("image Alpha v1.cbz p1.jpg", "image Alpha v1.cbz p2.jpg",
              "image Alpha v1.cbz p3.jpg")),
          Map.entry("Alpha/Alpha v2", List.of("image Alpha v2.cbz a.png", "image Alpha v2.cbz b.png")),
          Map.entry("Alpha/Alpha v10", List.of("image Alpha v10.cbz only.webp")),
          Map.entry("Alpha/Vol 1", List.of("image Vol 1.cbz 1.jpg", "image Vol 1.cbz 2.jpg", "image Vol 1.cbz 3.jpg",
              "image Vol 1.cbz 4.jpg")),
          Map.entry("Alpha.cbz/Alpha", List.of("image Alpha.cbz cover.jpg")),
          Map.entry("Beta/Chapter 1", List.of("image p1.jpg", "image p2.jpg", "image p10.jpg")),
          Map.entry("Gamma/Vol 1", List.of("image Vol 1.cbz 1.jpg", "image Vol 1.cbz 2.jpg", "image Vol 1.cbz 3.jpg",
              "image Vol 1.cbz 4.jpg")),
          Map.entry("Loose One.cbz/Loose One", List.of("image Loose One.cbz a.jpg", "image Loose One.cbz b.jpg")));

      // A deflated page is sent with its image type; a collection's CBZ is downloaded as the very file it is.
      JsonObject alpha = series(reader, admin, series, "Alpha");
      String v2 = chapterId(alpha, "Alpha v2");
      HttpResponse<byte[]> deflated = reader.bytes(ReaderUnderTest.as(admin, reader.get("/api/series/"
          + alpha.getString("id") + "/chapters/" + v2 + "/pages/1")));
      assertThat(deflated.headers().firstValue("Content-Type")).hasValue("image/png");
      HttpResponse<byte[]> cbz = reader.bytes(ReaderUnderTest.as(admin, reader.get("/api/series/"
          + alpha.getString("id") + "/chapters/" + chapterId(alpha, "Alpha v1") + ".cbz")));
      assertThat(cbz.statusCode()).as(new String(cbz.body(), StandardCharsets.UTF_8)).isEqualTo(200);
      assertThat(cbz.body()).isEqualTo(Files.readAllBytes(fixture.root.resolve("Alpha/Alpha v1.cbz")));

      JsonObject status = new JsonObject(reader.text(ReaderUnderTest.as(admin, reader.get("/api/admin/status")))
          .body());
      assertThat(status.encode()).contains("comics:Beta/truncated.cbz", "comics:Beta/bomb.cbz",
          "comics:Beta/evil.cbz", "comics:Beta/escape.cbz", "comics:Beta/Beta 3.cbr", "comics:Outside",
          "comics:Beta/Chapter 1/p3.jpg");
    }
    assertThat(CollectionFixture.fingerprint(fixture.root) + CollectionFixture.fingerprint(fixture.outside))
        .isEqualTo(before);
    assertThat(data.resolve("collections/comics/index.json")).isRegularFile();

    // Restarted: the kept index serves the collection before any scan of the new process.
    try (ReaderUnderTest again = ReaderUnderTest.withCollections(data, List.of(comics(fixture.root)))) {
      Session admin = again.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      assertThat(pages(again, admin, collectionSeries(again, admin, 5))).isEqualTo(served);
    }
  }

  @Test
  void aSeriesCopiedIntoAWatchedCollectionIsListedWithoutAnyoneAsking() throws Exception {
    Path root = Files.createDirectories(dir.resolve("watched"));
    CollectionFixture.cbz(Files.createDirectories(root.resolve("First")).resolve("1.cbz"), 0, "a.jpg");
    Path data = Files.createDirectories(dir.resolve("data"));
    LibraryConfig watched = new LibraryConfig("comics", "collection", root.toString(), 0, true);
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data, List.of(watched))) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      assertThat(collectionSeries(reader, admin, 1)).hasSize(1);
      // Written next to the collection, then moved in whole, as a copy tool finishing a series does.
      Path staged = Files.createDirectories(dir.resolve("Second"));
      CollectionFixture.cbz(staged.resolve("1.cbz"), 8, "a.jpg", "b.jpg");
      Files.move(staged, root.resolve("Second"));
      JsonArray both = collectionSeries(reader, admin, 2);
      assertThat(both.stream().map(s -> ((JsonObject) s).getString("title"))).containsExactly("First", "Second");
      assertThat(pages(reader, admin, both).get("Second/1"))
          .containsExactly("image 1.cbz a.jpg", "image 1.cbz b.jpg");
    }
  }

  @Test
  void anAdminAddsACollectionWhichIsScannedAtOnceKeptAcrossRestartsAndRemovedWithWhatWasKeptOfIt() throws Exception {
    CollectionFixture fixture = CollectionFixture.write(dir);
    Path data = Files.createDirectories(dir.resolve("data"));
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data, List.of())) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      assertThat(add(reader, admin, "comics", fixture.root.toString()).statusCode()).isEqualTo(201);
      assertThat(collectionSeries(reader, admin, 5)).hasSize(5);
      JsonObject libraries = new JsonObject(reader.text(ReaderUnderTest.as(admin, reader.get("/api/admin/libraries")))
          .body());
      JsonObject comics = libraries.getJsonArray("libraries").getJsonObject(1);
      assertThat(comics.getString("name")).isEqualTo("comics");
      assertThat(comics.getString("origin")).isEqualTo("admin");
      assertThat(comics.getInteger("series")).isEqualTo(5);
      assertThat(comics.getInteger("unreadableCount")).isEqualTo(7);
      assertThat(comics.getJsonArray("unreadable").encode()).contains("Beta/bomb.cbz", "broken_archive");

      HttpResponse<String> twice = add(reader, admin, "comics", fixture.outside.toString());
      assertThat(twice.statusCode()).isEqualTo(400);
      assertThat(twice.body()).contains("exists already");
      HttpResponse<String> inData = add(reader, admin, "inside", data.resolve("library").toString());
      assertThat(inData.statusCode()).isEqualTo(400);
      assertThat(inData.body()).contains("overlaps the data folder");
      HttpResponse<String> missing = add(reader, admin, "nowhere", dir.resolve("nowhere").toString());
      assertThat(missing.statusCode()).isEqualTo(400);
      assertThat(missing.body()).contains("is not a folder");
    }
    try (ReaderUnderTest again = ReaderUnderTest.withCollections(data, List.of())) {
      Session admin = again.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      assertThat(collectionSeries(again, admin, 5)).hasSize(5);
      HttpResponse<String> removed = again.text(ReaderUnderTest.as(admin, again.request("DELETE",
          "/api/admin/libraries/comics", null)));
      assertThat(removed.statusCode()).isEqualTo(204);
      assertThat(data.resolve("collections/comics")).doesNotExist();
      await().atMost(Duration.ofSeconds(30)).until(() -> !again.text(ReaderUnderTest.as(admin,
          again.get("/api/series"))).body().contains("\"library\":\"comics\""));
    }
    assertThat(fixture.root.resolve("Alpha/Alpha v1.cbz")).isRegularFile();
  }

  @Test
  void aLibrariesFileThatDoesNotParseIsReportedAndNeverOverwritten() throws Exception {
    CollectionFixture fixture = CollectionFixture.write(dir);
    Path data = Files.createDirectories(dir.resolve("data"));
    Files.writeString(data.resolve("libraries.json"), "{\"schema\": 1, \"libraries\": [");
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data, List.of())) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      HttpResponse<String> refused = add(reader, admin, "comics", fixture.root.toString());
      assertThat(refused.statusCode()).isEqualTo(400);
      assertThat(refused.body()).contains("libraries.json", "repair or remove it first");
    }
    assertThat(Files.readString(data.resolve("libraries.json"))).isEqualTo("{\"schema\": 1, \"libraries\": [");
  }

  private static HttpResponse<String> add(ReaderUnderTest reader, Session admin, String name, String path)
      throws Exception {
    return reader.text(ReaderUnderTest.as(admin, reader.request("POST", "/api/admin/libraries",
        new JsonObject().put("name", name).put("path", path).put("watch", false).encode())));
  }

  static LibraryConfig comics(Path root) {
    return new LibraryConfig("comics", "collection", root.toString(), 0, false);
  }

  /** The collection's series once the list holds at least {@code count} of them. */
  static JsonArray collectionSeries(ReaderUnderTest reader, Session session, int count) {
    JsonArray[] found = new JsonArray[1];
    await().atMost(Duration.ofSeconds(30)).until(() -> {
      JsonObject list = new JsonObject(reader.text(ReaderUnderTest.as(session, reader.get("/api/series"))).body());
      JsonArray comics = new JsonArray();
      list.getJsonArray("series").forEach(s -> {
        if ("comics".equals(((JsonObject) s).getString("library"))) {
          comics.add(s);
        }
      });
      found[0] = comics;
      return comics.size() >= count && !list.getBoolean("partial");
    });
    return found[0];
  }

  private static JsonObject series(ReaderUnderTest reader, Session session, JsonArray list, String path)
      throws Exception {
    for (Object s : list) {
      if (((JsonObject) s).getString("titleId").equals(path)) {
        return new JsonObject(reader.text(ReaderUnderTest.as(session, reader.get("/api/series/"
            + ((JsonObject) s).getString("id")))).body());
      }
    }
    throw new AssertionError("no series at " + path + " in " + list);
  }

  private static String chapterId(JsonObject series, String title) {
    for (Object c : series.getJsonArray("chapters")) {
      if (((JsonObject) c).getString("title").equals(title)) {
        return ((JsonObject) c).getString("id");
      }
    }
    throw new AssertionError("no chapter " + title + " in " + series);
  }

  /** Every page of every book, as text, by "series path/book title", in the order the reader lists them. */
  static Map<String, List<String>> pages(ReaderUnderTest reader, Session session, JsonArray list) throws Exception {
    Map<String, List<String>> all = new LinkedHashMap<>();
    List<String> paths = new ArrayList<>();
    list.forEach(s -> paths.add(((JsonObject) s).getString("titleId")));
    paths.sort(null);
    for (String path : paths) {
      JsonObject series = series(reader, session, list, path);
      for (Object c : series.getJsonArray("chapters")) {
        JsonObject chapter = new JsonObject(reader.text(ReaderUnderTest.as(session, reader.get("/api/series/"
            + series.getString("id") + "/chapters/" + ((JsonObject) c).getString("id")))).body());
        List<String> pages = new ArrayList<>();
        for (Object page : chapter.getJsonArray("pages")) {
          HttpResponse<byte[]> image = reader.bytes(ReaderUnderTest.as(session, reader.get((String) page)));
          assertThat(image.statusCode()).as("%s", page).isEqualTo(200);
          pages.add(new String(image.body(), StandardCharsets.UTF_8));
        }
        all.put(path + "/" + ((JsonObject) c).getString("title"), pages);
      }
    }
    return all;
  }
}
