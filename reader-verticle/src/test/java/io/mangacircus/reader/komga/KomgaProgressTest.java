package io.mangacircus.reader.komga;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static io.mangacircus.reader.ReaderUnderTest.basic;
import static io.mangacircus.reader.komga.KomgaDtoKeys.assertShape;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
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
 * book's file; each seen both ways with the browser reader's own progress routes; and the tracker let in by the
 * session cookie of the source's sign-in, as Mihon runs it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KomgaProgressTest {

  /** The tracker's route, asked with the source's session cookie only. */
  private static final String SESSION_TRACKER = "/komga/api/v2/series/moon/read-progress/tachiyomi";

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

  // Mihon's Komga tracker sends no credentials (mihonapp/mihon data/track/komga/KomgaApi.kt uses the app's client,
  // which shares its cookie jar with the Komga source but has no authenticator): it is let in by the session cookie
  // the source's Basic login left, with that app password's scope, and by nothing else.

  @Test
  void theTrackerIsLetInByTheCookieTheSourcesBasicLoginLeftWithItsScope() throws Exception {
    ReaderUnderTest.Session ivy = user("ivy");
    String mihon = reader.createAppPassword(ivy, "Mihon", "read+progress").getString("password");
    String panels = reader.createAppPassword(ivy, "Panels", "read").getString("password");
    String cookie = sourceLogin("ivy", mihon);
    String readOnly = sourceLogin("ivy", panels);

    HttpResponse<String> refreshed = reader.text(reader.get(SESSION_TRACKER).header("Cookie", cookie));
    assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
    assertThat(new JsonObject(refreshed.body()).getInteger("booksUnreadCount")).isEqualTo(3);
    assertThat(reader.text(trackerUpdate(1.0).header("Cookie", cookie)).statusCode()).isEqualTo(204);
    assertThat(new JsonObject(reader.text(reader.get(SESSION_TRACKER).header("Cookie", cookie)).body())
        .getDouble("lastReadContinuousNumberSort")).isEqualTo(1.0);
    assertThat(reader.text(trackerUpdate(2.0).header("Cookie", readOnly)).statusCode())
        .as("the read-only app password's session may not move progress").isEqualTo(403);

    // The cookie opens nothing outside the Komga API: not the browser's routes, not the catalog.
    assertThat(reader.text(reader.get("/api/progress").header("Cookie", cookie)).statusCode()).isEqualTo(401);
    assertThat(reader.text(reader.get("/opds/v1.2/catalog").header("Cookie", cookie)).statusCode()).isEqualTo(401);
  }

  @Test
  void revokingTheAppPasswordEndsItsSessionAtOnce() throws Exception {
    ReaderUnderTest.Session una = user("una");
    JsonObject made = reader.createAppPassword(una, "Mihon", "read+progress");
    String cookie = sourceLogin("una", made.getString("password"));
    assertThat(reader.text(reader.get(SESSION_TRACKER).header("Cookie", cookie)).statusCode()).isEqualTo(200);

    HttpResponse<String> revoked = reader.text(ReaderUnderTest.as(una, reader.request("DELETE",
        "/api/me/app-passwords/" + made.getLong("id"), null)));
    assertThat(revoked.statusCode()).isEqualTo(204);

    HttpResponse<String> after = reader.text(reader.get(SESSION_TRACKER).header("Cookie", cookie));
    assertThat(after.statusCode()).isEqualTo(401);
    assertThat(after.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
        .startsWith("Basic "));
  }

  @Test
  void aForgedOrUnknownSessionCookieIsNotLetIn() throws Exception {
    for (String value : new String[] {"", "x", "A".repeat(43), "A".repeat(5000)}) {
      assertThat(reader.text(reader.get(SESSION_TRACKER).header("Cookie", "mc_app_session=" + value)).statusCode())
          .as(value.length() + " characters").isEqualTo(401);
    }
  }

  /** The Komga source's first browse with Basic credentials; the {@code name=value} of the session cookie it got. */
  private String sourceLogin(String user, String secret) throws Exception {
    HttpResponse<String> browsed = reader.text(basic(user, secret, reader.get("/komga/api/v1/series?page=0")));
    assertThat(browsed.statusCode()).isEqualTo(200);
    String setCookie = browsed.headers().allValues("Set-Cookie").stream()
        .filter(c -> c.startsWith("mc_app_session=")).findFirst().orElseThrow();
    assertThat(setCookie).containsIgnoringCase("HttpOnly").contains("Path=/");
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  private HttpRequest.Builder trackerUpdate(double number) {
    return reader.request("PUT", SESSION_TRACKER, new JsonObject().put("lastBookNumberSortRead", number).encode());
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
