package io.mangacircus.reader.komga;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static io.mangacircus.reader.komga.KomgaDtoKeys.assertShape;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading progress through the Komga API against the real reader, each test as its own user: Mihon's tracker
 * (mihonapp/mihon {@code app/src/main/java/eu/kanade/tachiyomi/data/track/komga/KomgaApi.kt}: {@code GET} and
 * {@code PUT {lastBookNumberSortRead}} of {@code /api/v2/series/{id}/read-progress/tachiyomi}), a book's
 * {@code PATCH}/{@code DELETE read-progress}, books' {@code readProgress}, series' counts, {@code read_status} and a
 * book's file; each seen both ways with the browser reader's own progress routes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KomgaProgressTest {

  @TempDir
  static Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeAll
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    for (int n = 1; n <= 3; n++) {
      library.chapter("moon", "Moon Circus", n, 2 + n, Instant.parse("2026-01-0" + n + "T03:04:05Z"));
    }
    library.chapter("sun", "Sun Parade", 1, 2, Instant.parse("2026-02-01T00:00:00Z"));
    library.chapter("sun", "Sun Parade", 2, 2, Instant.parse("2026-03-01T00:00:00Z"));
    library.chapter("aster", "Aster Fair", 1, 1, Instant.parse("2025-12-01T00:00:00Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void theTrackerMarksChaptersUpToItsNumberReadAndReportsThem() throws Exception {
    ReaderUnderTest.Session tina = user("tina");
    JsonObject before = json(tina, "GET", "/komga/api/v2/series/moon/read-progress/tachiyomi", null, 200);
    assertShape("ReadProgressV2Dto", before, KomgaDtoKeys.TRACKER_PROGRESS);
    assertThat(before.getInteger("booksUnreadCount")).isEqualTo(3);
    assertThat(before.getFloat("maxNumberSort")).isEqualTo(3f);

    send(tina, "PUT", "/komga/api/v2/series/moon/read-progress/tachiyomi", "{\"lastBookNumberSortRead\": 2.0}", 204);
    JsonObject after = json(tina, "GET", "/komga/api/v2/series/moon/read-progress/tachiyomi", null, 200);
    assertThat(after.getInteger("booksReadCount")).isEqualTo(2);
    assertThat(after.getInteger("booksUnreadCount")).isEqualTo(1);
    assertThat(after.getFloat("lastReadContinuousNumberSort")).isEqualTo(2f);
    // The browser's "Continue reading" moved to the end of chapter 2 (4 pages).
    JsonObject position = browserPosition(tina, "moon");
    assertThat(position.getString("chapter")).isEqualTo("chapter-0002");
    assertThat(position.getInteger("page")).isEqualTo(4);

    // Beyond the last chapter: as Komga, every chapter up to it, so all of them.
    send(tina, "PUT", "/komga/api/v2/series/moon/read-progress/tachiyomi", "{\"lastBookNumberSortRead\": 99}", 204);
    JsonObject all = json(tina, "GET", "/komga/api/v2/series/moon/read-progress/tachiyomi", null, 200);
    assertThat(all.getInteger("booksReadCount")).isEqualTo(3);
    assertThat(all.getFloat("lastReadContinuousNumberSort")).isEqualTo(3f);
  }

  @Test
  void theTrackerRefusesANonNumericBodyAndAnUnknownSeriesInKomgasErrorShape() throws Exception {
    ReaderUnderTest.Session ted = user("ted");
    for (String body : List.of("{\"lastBookNumberSortRead\": \"two\"}", "{}", "two")) {
      assertShape("error", json(ted, "PUT", "/komga/api/v2/series/moon/read-progress/tachiyomi", body, 400),
          KomgaDtoKeys.ERROR);
    }
    assertShape("error", json(ted, "GET", "/komga/api/v2/series/nowhere/read-progress/tachiyomi", null, 404),
        KomgaDtoKeys.ERROR);
    assertShape("error", json(ted, "PUT", "/komga/api/v2/series/nowhere/read-progress/tachiyomi",
        "{\"lastBookNumberSortRead\": 1}", 404), KomgaDtoKeys.ERROR);
  }

  @Test
  void aBooksPatchAndDeleteAreWhatTheBrowserReaderReads() throws Exception {
    ReaderUnderTest.Session bob = user("bob");
    String first = "/komga/api/v1/books/" + KomgaIds.bookId("moon", "chapter-0001");
    String second = "/komga/api/v1/books/" + KomgaIds.bookId("moon", "chapter-0002");
    send(bob, "PATCH", first + "/read-progress", "{\"page\": 2}", 204);
    assertThat(browserPosition(bob, "moon").getInteger("page")).isEqualTo(2);
    JsonObject progress = json(bob, "GET", first, null, 200).getJsonObject("readProgress");
    assertShape("ReadProgressDto", progress, KomgaDtoKeys.READ_PROGRESS);
    assertThat(progress.getInteger("page")).isEqualTo(2);
    assertThat(progress.getBoolean("completed")).isFalse();

    send(bob, "PATCH", second + "/read-progress", "{\"completed\": true}", 204);
    JsonObject position = browserPosition(bob, "moon");
    assertThat(position.getString("chapter")).isEqualTo("chapter-0002");
    assertThat(position.getInteger("page")).isEqualTo(4);
    assertThat(json(bob, "GET", second, null, 200).getJsonObject("readProgress").getBoolean("completed")).isTrue();

    send(bob, "DELETE", second + "/read-progress", null, 204);
    assertThat(json(bob, "GET", second, null, 200).getValue("readProgress")).isNull();
    assertThat(browserPosition(bob, "moon")).isNull();

    assertShape("error", json(bob, "PATCH", first + "/read-progress", "{}", 400), KomgaDtoKeys.ERROR);
    assertShape("error", json(bob, "PATCH", first + "/read-progress", "{\"page\": 99}", 400), KomgaDtoKeys.ERROR);
  }

  @Test
  void aBrowserSaveShowsAsReadProgressInBooksAndInTheTracker() throws Exception {
    ReaderUnderTest.Session carl = user("carl");
    send(carl, "PUT", "/api/progress/sun", "{\"chapter\": \"chapter-0001\", \"page\": 1}", 200);
    JsonArray books = json(carl, "GET", "/komga/api/v1/series/sun/books?unpaged=true", null, 200)
        .getJsonArray("content");
    JsonObject progress = books.getJsonObject(0).getJsonObject("readProgress");
    assertThat(progress.getInteger("page")).isEqualTo(1);
    assertThat(progress.getBoolean("completed")).isFalse();
    assertThat(books.getJsonObject(1).getValue("readProgress")).isNull();
    JsonObject tracker = json(carl, "GET", "/komga/api/v2/series/sun/read-progress/tachiyomi", null, 200);
    assertThat(tracker.getInteger("booksInProgressCount")).isEqualTo(1);
    assertThat(tracker.getInteger("booksReadCount")).isZero();

    send(carl, "PUT", "/api/progress/sun", "{\"chapter\": \"chapter-0002\", \"page\": 2}", 200);
    tracker = json(carl, "GET", "/komga/api/v2/series/sun/read-progress/tachiyomi", null, 200);
    assertThat(tracker.getInteger("booksReadCount")).isEqualTo(1);
    assertThat(tracker.getFloat("lastReadContinuousNumberSort")).isZero();
    assertThat(json(carl, "GET", "/komga/api/v1/books/" + KomgaIds.bookId("sun", "chapter-0002"), null, 200)
        .getJsonObject("readProgress").getBoolean("completed")).isTrue();
  }

  @Test
  void theSeriesListCountsAndFiltersByTheUsersReadStatus() throws Exception {
    ReaderUnderTest.Session lisa = user("lisa");
    send(lisa, "PUT", "/api/progress/aster", "{\"chapter\": \"chapter-0001\", \"page\": 1}", 200);
    send(lisa, "PUT", "/api/progress/sun", "{\"chapter\": \"chapter-0001\", \"page\": 1}", 200);
    String list = "/komga/api/v1/series?page=0&deleted=false&sort=metadata.titleSort%2Casc";
    assertThat(titles(json(lisa, "GET", list + "&read_status=READ", null, 200))).containsExactly("Aster Fair");
    assertThat(titles(json(lisa, "GET", list + "&read_status=IN_PROGRESS", null, 200))).containsExactly("Sun Parade");
    assertThat(titles(json(lisa, "GET", list + "&read_status=UNREAD&read_status=IN_PROGRESS", null, 200)))
        .containsExactly("Moon Circus", "Sun Parade");
    JsonObject sun = json(lisa, "GET", "/komga/api/v1/series/sun", null, 200);
    assertShape("SeriesDto", sun, KomgaDtoKeys.SERIES_COUNTS);
    assertThat(List.of(sun.getInteger("booksReadCount"), sun.getInteger("booksUnreadCount"),
        sun.getInteger("booksInProgressCount"))).containsExactly(0, 1, 1);
    JsonObject moon = json(lisa, "GET", list + "&search=moon", null, 200).getJsonArray("content").getJsonObject(0);
    assertThat(moon.getInteger("booksUnreadCount")).isEqualTo(3);
    assertShape("error", json(lisa, "GET", list + "&read_status=SOMETIMES", null, 400), KomgaDtoKeys.ERROR);
  }

  @Test
  void aBooksFileIsTheReadersOwnCbz() throws Exception {
    HttpResponse<byte[]> own = reader.bytes(as(admin, reader.get("/api/series/moon/chapters/chapter-0002.cbz")));
    HttpResponse<byte[]> komga = reader.bytes(as(admin, reader.get("/komga/api/v1/books/"
        + KomgaIds.bookId("moon", "chapter-0002") + "/file")));
    assertThat(komga.statusCode()).isEqualTo(200);
    assertThat(komga.body()).isEqualTo(own.body());
    assertThat(komga.headers().firstValue("ETag")).isEqualTo(own.headers().firstValue("ETag"));
    assertThat(komga.headers().firstValue("Content-Disposition"))
        .isEqualTo(own.headers().firstValue("Content-Disposition"));
  }

  private ReaderUnderTest.Session user(String name) throws Exception {
    reader.createReader(admin, name, name + "-reads-a-lot-of-manga");
    return reader.login(name, name + "-reads-a-lot-of-manga");
  }

  /** The browser's saved position in a series ({@code GET /api/progress}), or null. */
  private JsonObject browserPosition(ReaderUnderTest.Session session, String series) throws Exception {
    for (Object p : json(session, "GET", "/api/progress", null, 200).getJsonArray("progress")) {
      if (series.equals(((JsonObject) p).getString("series"))) {
        return (JsonObject) p;
      }
    }
    return null;
  }

  private JsonObject json(ReaderUnderTest.Session session, String method, String path, String body, int status)
      throws Exception {
    return new JsonObject(send(session, method, path, body, status));
  }

  private String send(ReaderUnderTest.Session session, String method, String path, String body, int status)
      throws Exception {
    HttpResponse<String> answer = reader.text(as(session, reader.request(method, path, body)));
    assertThat(answer.statusCode()).as(method + " " + path + ": " + answer.body()).isEqualTo(status);
    return answer.body();
  }

  private static List<String> titles(JsonObject page) {
    return page.getJsonArray("content").stream().map(s -> ((JsonObject) s).getJsonObject("metadata")
        .getString("title")).toList();
  }
}
