package io.mangacircus.reader.library.collection;

import static io.mangacircus.reader.library.collection.CollectionComicInfoTest.cbz;
import static io.mangacircus.reader.library.collection.CollectionComicInfoTest.comicInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.reader.LibraryConfig;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.ReaderUnderTest.Session;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collection's ComicInfo.xml through the reader: its books' strictest AgeRating hides a series from a reader limited
 * below it, and the series answer's metadata takes the admin's catalog fields above ComicInfo's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CollectionMetadataRoutesTest {

  @TempDir
  static Path dir;

  private ReaderUnderTest reader;
  private Session admin;
  private Session teen;
  private final Map<String, String> ids = new HashMap<>();

  @BeforeAll
  void start() throws Exception {
    Path shelf = Files.createDirectories(dir.resolve("shelf"));
    Path mature = Files.createDirectories(shelf.resolve("Mature Saga"));
    cbz(mature.resolve("v1.cbz"), ZipEntry.STORED, "1.jpg", "image", "ComicInfo.xml",
        comicInfo("<AgeRating>Teen</AgeRating>"));
    cbz(mature.resolve("v2.cbz"), ZipEntry.DEFLATED, "1.jpg", "image", "ComicInfo.xml",
        comicInfo("<AgeRating>Mature 17+</AgeRating>"));
    cbz(Files.createDirectories(shelf.resolve("Kids Tale")).resolve("v1.cbz"), ZipEntry.DEFLATED, "1.jpg", "image",
        "ComicInfo.xml", comicInfo("<Summary>From the file.</Summary><Writer>Jane Roe</Writer>"
            + "<Penciller>Ann Ink</Penciller><Genre>Comedy, Drama</Genre><Year>2019</Year>"
            + "<Web>https://example.org/kids javascript:alert(1)</Web><LanguageISO>en</LanguageISO>"
            + "<AgeRating>Everyone</AgeRating>"));
    Path data = Files.createDirectories(dir.resolve("data"));
    reader = ReaderUnderTest.withCollections(data, List.of(
        new LibraryConfig("shelf", "collection", shelf.toString(), 0, false)));
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    await().atMost(Duration.ofSeconds(30)).until(() -> list(admin).size() == 2);
    list(admin).forEach(s -> ids.put(((JsonObject) s).getString("title"), ((JsonObject) s).getString("id")));
    reader.createReader(admin, "teen", "teen-password-1234");
    ok(reader.text(ReaderUnderTest.as(admin, reader.request("PUT", "/api/admin/users/teen/access",
        new JsonObject().put("libraries", "all").put("ageLimit", "15").encode()))));
    teen = reader.login("teen", "teen-password-1234");
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void aSeriesRatedByItsStrictestBookIsHiddenFromAReaderLimitedBelowIt() throws Exception {
    assertThat(list(teen)).extracting(s -> ((JsonObject) s).getString("title")).containsExactly("Kids Tale");
    assertThat(reader.text(ReaderUnderTest.as(teen, reader.get("/api/series/" + ids.get("Mature Saga"))))
        .statusCode()).isEqualTo(404);
    assertThat(series(admin, "Mature Saga").getJsonObject("metadata").getString("ageRating")).isEqualTo("18");
  }

  @Test
  void theSeriesAnswersMetadataFromComicInfoWithTheAdminsCatalogFieldsAbove() throws Exception {
    JsonObject fromFiles = series(teen, "Kids Tale").getJsonObject("metadata");
    assertThat(fromFiles.getString("summary")).isEqualTo("From the file.");
    assertThat(fromFiles.getJsonArray("authors")).containsExactly(
        new JsonObject().put("name", "Jane Roe").put("role", "writer"),
        new JsonObject().put("name", "Ann Ink").put("role", "penciller"));
    assertThat(fromFiles.getJsonArray("genres")).containsExactly("Comedy", "Drama");
    assertThat(fromFiles.getInteger("year")).isEqualTo(2019);
    assertThat(fromFiles.getString("language")).isEqualTo("en");
    assertThat(fromFiles.getJsonArray("links")).containsExactly("https://example.org/kids");
    assertThat(fromFiles.getString("ageRating")).isEqualTo("all");
    assertThat(fromFiles.getString("ageRatingOrigin")).isEqualTo("comic_info");

    ok(reader.text(ReaderUnderTest.as(admin, reader.request("PUT", "/api/admin/catalog/series/"
        + ids.get("Kids Tale"), new JsonObject().put("description", "The admin's words.")
        .put("tags", new JsonArray().add("favourite")).put("ageRating", "12").encode()))));
    JsonObject answer = series(admin, "Kids Tale");
    JsonObject merged = answer.getJsonObject("metadata");

    assertThat(merged.getString("summary")).isEqualTo("The admin's words.");
    assertThat(merged.getJsonArray("tags")).containsExactly("favourite");
    assertThat(merged.getString("ageRating")).isEqualTo("12");
    assertThat(merged.getString("ageRatingOrigin")).isEqualTo("admin");
    assertThat(merged.getJsonArray("genres")).containsExactly("Comedy", "Drama");
    assertThat(answer.getString("description")).isEqualTo("The admin's words.");
    assertThat(answer.getJsonArray("tags")).containsExactly("favourite");
  }

  private JsonObject series(Session session, String title) throws Exception {
    HttpResponse<String> answer = reader.text(ReaderUnderTest.as(session, reader.get("/api/series/"
        + ids.get(title))));
    ok(answer);
    return new JsonObject(answer.body());
  }

  private JsonArray list(Session session) throws Exception {
    return new JsonObject(reader.text(ReaderUnderTest.as(session, reader.get("/api/series"))).body())
        .getJsonArray("series");
  }

  private static void ok(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as(answer.body()).isBetween(200, 299);
  }
}
