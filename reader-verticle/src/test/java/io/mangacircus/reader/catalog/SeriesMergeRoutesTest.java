package io.mangacircus.reader.catalog;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.reader.LibraryConfig;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.ReaderUnderTest.Session;
import io.mangacircus.reader.komga.KomgaIds;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An admin merges a collection's series into the downloaded one of the same title, against the real reader: one series
 * with both libraries' chapters, each read page by page under the id of the series that holds it; kept across a
 * restart; undone into two again; a reader limited to the downloads never sees the collection's chapters through it,
 * and one limited to the collection sees its series on its own.
 */
class SeriesMergeRoutesTest {

  @TempDir
  Path dir;

  private Path data;
  private List<LibraryConfig> libraries;

  @BeforeEach
  void library() throws Exception {
    data = Files.createDirectories(dir.resolve("data"));
    new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 2, Instant.parse("2026-01-02T03:04:05Z"));
    Path shelf = Files.createDirectories(dir.resolve("shelf"));
    try (OutputStream out = Files.newOutputStream(Files.createDirectories(shelf.resolve("Moon Circus"))
        .resolve("Vol 9.cbz")); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (String page : List.of("1", "2", "3")) {
        zip.putNextEntry(new ZipEntry(page + ".png"));
        zip.write(LibraryFixture.png("shelf page " + page));
        zip.closeEntry();
      }
    }
    libraries = List.of(new LibraryConfig("shelf", "collection", shelf.toString(), 0, false));
  }

  @Test
  void aMergedCollectionSeriesIsReadInsideTheDownloadedOneKeptOverARestartAndUnmergedIntoTwoAgain() throws Exception {
    String shelfId;
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data, libraries)) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      await().atMost(Duration.ofSeconds(30)).until(() -> list(reader, admin).size() == 2);
      shelfId = list(reader, admin).stream().map(s -> ((JsonObject) s).getString("id")).filter(id -> !id.equals("moon"))
          .findFirst().orElseThrow();

      HttpResponse<String> merged = merge(reader, admin, shelfId, "moon");
      assertThat(merged.statusCode()).as(merged.body()).isEqualTo(200);
      assertMergedAndReadable(reader, admin, shelfId);
      JsonObject own = new JsonObject(reader.text(as(admin, reader.get("/api/series/" + shelfId))).body());
      assertThat(own.getString("mergedInto")).as("the merged series' own id names the series that shows it")
          .isEqualTo("moon");
      assertThat(reader.text(as(admin, reader.get("/api/admin/series/merges"))).body())
          .contains("\"series\":\"" + shelfId + "\"", "\"into\":\"moon\"");
    }

    try (ReaderUnderTest again = ReaderUnderTest.withCollections(data, libraries)) {
      Session admin = again.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      await().atMost(Duration.ofSeconds(30)).until(() -> again.text(as(admin, again.get("/api/series/moon")))
          .body().contains(shelfId));
      assertMergedAndReadable(again, admin, shelfId);

      HttpResponse<String> unmerged = again.text(as(admin, again.request("DELETE", "/api/admin/series/" + shelfId
          + "/merge", null)));
      assertThat(unmerged.statusCode()).as(unmerged.body()).isEqualTo(200);
      assertThat(list(again, admin).stream().map(s -> ((JsonObject) s).getString("id")))
          .containsExactlyInAnyOrder("moon", shelfId);
      assertThat(chapters(again, admin, "moon")).extracting(c -> c.getString("series")).containsExactly("moon");
    }
  }

  @Test
  void unknownIdsAMergeIntoItselfAndChainsAreRefusedWithASentence() throws Exception {
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data, libraries)) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      await().atMost(Duration.ofSeconds(30)).until(() -> list(reader, admin).size() == 2);
      String shelfId = list(reader, admin).stream().map(s -> ((JsonObject) s).getString("id"))
          .filter(id -> !id.equals("moon")).findFirst().orElseThrow();
      assertRefused(merge(reader, admin, "moon", "nope"), 404, "no series nope to merge moon into");
      assertRefused(merge(reader, admin, "moon", "moon"), 400, "a series cannot be merged into itself");
      assertThat(merge(reader, admin, shelfId, "moon").statusCode()).isEqualTo(200);
      assertRefused(merge(reader, admin, "moon", shelfId), 400, "merges are one level deep");
      assertRefused(reader.text(as(admin, reader.request("DELETE", "/api/admin/series/moon/merge", null))), 404,
          "moon is not merged into another series");
    }
  }

  @Test
  void aReaderLimitedToTheDownloadsSeesNoneOfTheCollectionsChaptersThroughTheMergeAndOneLimitedToItSeesItAlone() throws Exception {
    try (ReaderUnderTest reader = ReaderUnderTest.withCollections(data, libraries)) {
      Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      await().atMost(Duration.ofSeconds(30)).until(() -> list(reader, admin).size() == 2);
      String shelfId = list(reader, admin).stream().map(s -> ((JsonObject) s).getString("id"))
          .filter(id -> !id.equals("moon")).findFirst().orElseThrow();
      String shelfChapter = chapters(reader, admin, shelfId).get(0).getString("id");
      reader.createReader(admin, "kid", "kid-password-1234");
      HttpResponse<String> limited = reader.text(as(admin, reader.request("PUT", "/api/admin/users/kid/access",
          new JsonObject().put("libraries", new JsonArray().add("downloads")).put("ageLimit", "none").encode())));
      assertThat(limited.statusCode()).as(limited.body()).isEqualTo(200);
      assertThat(merge(reader, admin, shelfId, "moon").statusCode()).isEqualTo(200);
      Session kid = reader.login("kid", "kid-password-1234");

      assertThat(list(reader, kid).stream().map(s -> ((JsonObject) s).getString("id"))).containsExactly("moon");
      String moon = reader.text(as(kid, reader.get("/api/series/moon"))).body();
      assertThat(moon).doesNotContain(shelfId);
      assertThat(new JsonObject(moon).getJsonArray("chapters")).hasSize(1);
      assertThat(reader.text(as(kid, reader.get("/opds/v1.2/series/moon"))).body()).doesNotContain(shelfId);
      assertThat(reader.text(as(kid, reader.get("/komga/api/v1/series/moon/books"))).body())
          .doesNotContain(KomgaIds.bookId(shelfId, shelfChapter));
      for (String path : List.of("/api/series/" + shelfId, "/api/series/" + shelfId + "/chapters/" + shelfChapter
          + "/pages/1", "/api/series/moon/chapters/" + shelfChapter + "/pages/1")) {
        assertThat(reader.bytes(as(kid, reader.get(path))).statusCode()).as(path).isEqualTo(404);
      }

      // One who sees only the collection sees its series on its own, as if nothing were merged.
      reader.createReader(admin, "shelver", "shelver-password-1234");
      assertThat(reader.text(as(admin, reader.request("PUT", "/api/admin/users/shelver/access", new JsonObject()
          .put("libraries", new JsonArray().add("shelf")).put("ageLimit", "none").encode()))).statusCode())
          .isEqualTo(200);
      Session shelver = reader.login("shelver", "shelver-password-1234");
      assertThat(list(reader, shelver).stream().map(s -> ((JsonObject) s).getString("id"))).containsExactly(shelfId);
      JsonObject own = new JsonObject(reader.text(as(shelver, reader.get("/api/series/" + shelfId))).body());
      assertThat(own.getString("mergedInto")).isNull();
      assertThat(reader.bytes(as(shelver, reader.get("/api/series/moon"))).statusCode()).isEqualTo(404);
    }
  }

  /** One series listed; its chapters: its own, then the collection's, each page served under the chapter's series. */
  private static void assertMergedAndReadable(ReaderUnderTest reader, Session admin, String shelfId) throws Exception {
    assertThat(list(reader, admin).stream().map(s -> ((JsonObject) s).getString("id"))).containsExactly("moon");
    assertThat(reader.text(as(admin, reader.get("/api/series?q=moon"))).body()).doesNotContain(shelfId);
    List<JsonObject> chapters = chapters(reader, admin, "moon");
    assertThat(chapters).extracting(c -> c.getString("series")).containsExactly("moon", shelfId);
    List<byte[]> pages = new ArrayList<>();
    for (JsonObject chapter : chapters) {
      for (int page = 1; page <= chapter.getInteger("pages"); page++) {
        HttpResponse<byte[]> image = reader.bytes(as(admin, reader.get("/api/series/" + chapter.getString("series")
            + "/chapters/" + chapter.getString("id") + "/pages/" + page)));
        assertThat(image.statusCode()).isEqualTo(200);
        pages.add(image.body());
      }
    }
    assertThat(pages).containsExactly(LibraryFixture.png("Moon Circus 1 / 1"), LibraryFixture.png("Moon Circus 1 / 2"),
        LibraryFixture.png("shelf page 1"), LibraryFixture.png("shelf page 2"), LibraryFixture.png("shelf page 3"));
    // OPDS and the Komga API show the same one series with both libraries' books, each under its own series' id.
    String shelfBook = KomgaIds.bookId(shelfId, chapters.get(1).getString("id"));
    assertThat(reader.text(as(admin, reader.get("/opds/v1.2/series/moon"))).body())
        .contains("/series/" + shelfId + "/chapters/" + chapters.get(1).getString("id") + ".cbz");
    assertThat(reader.text(as(admin, reader.get("/opds/v1.2/series"))).body()).doesNotContain(shelfId);
    assertThat(reader.text(as(admin, reader.get("/komga/api/v1/series/moon/books"))).body()).contains(shelfBook);
    assertThat(reader.text(as(admin, reader.get("/komga/api/v1/series"))).body()).doesNotContain(shelfId);
    assertThat(reader.bytes(as(admin, reader.get("/komga/api/v1/books/" + shelfBook + "/pages/3"))).body())
        .isEqualTo(LibraryFixture.png("shelf page 3"));
  }

  private static void assertRefused(HttpResponse<String> answer, int status, String sentence) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
    assertThat(answer.body()).contains(sentence);
  }

  private static HttpResponse<String> merge(ReaderUnderTest reader, Session admin, String series, String into)
      throws Exception {
    return reader.text(as(admin, reader.request("POST", "/api/admin/series/" + series + "/merge",
        new JsonObject().put("into", into).encode())));
  }

  private static List<JsonObject> chapters(ReaderUnderTest reader, Session session, String series) throws Exception {
    return new JsonObject(reader.text(as(session, reader.get("/api/series/" + series))).body())
        .getJsonArray("chapters").stream().map(c -> (JsonObject) c).toList();
  }

  private static JsonArray list(ReaderUnderTest reader, Session session) throws Exception {
    return new JsonObject(reader.text(as(session, reader.get("/api/series"))).body()).getJsonArray("series");
  }
}
