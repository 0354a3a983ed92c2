package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The reading apps' own requests, replayed in order against the real jar over a library of several series: Mihon's
 * Komga source browsing (keiyoushi/extensions-source {@code src/all/komga/.../Komga.kt}: popular, latest, search with
 * its read-status filter, details, chapter list, page list, every page image; it sends {@code User-Agent:
 * TachiyomiKomga/...} and Basic credentials after a Basic challenge), Mihon's Komga tracker
 * (mihonapp/mihon {@code app/src/main/java/eu/kanade/tachiyomi/data/track/komga/KomgaApi.kt}: {@code getTrackSearch}
 * reads the series then {@code /api/v2/series/{id}/read-progress/tachiyomi}; {@code updateProgress} PUTs
 * {@code {lastBookNumberSortRead}} there and reads both again) and KOReader's sync plugin (koreader/koreader
 * {@code plugins/kosync.koplugin/KOSyncClient.lua} and {@code api.json}: {@code x-auth-user}, {@code x-auth-key} =
 * MD5 of the password, {@code Accept: application/vnd.koreader.v1+json}; the document is the partial MD5 of the file,
 * {@code frontend/util.lua}). Every key those clients decode is checked for presence and type. Then progress made in
 * one place shows in every other, and nothing changes across a restart of the jar, the CBZ's bytes included.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("process")
class ReadingAppsReplayIT {

  private static final String ADMIN_PASSWORD = "apps-admin-password";
  private static final String RITA_PASSWORD = "rita-reads-on-the-train";
  private static final String KOMGA_UA = "TachiyomiKomga/1.4.200";
  private static final String TRACKER_UA = "Mihon v0.19.3 (app.mihon)";
  private static final String KOSYNC_ACCEPT = "application/vnd.koreader.v1+json";
  private static final Instant PUBLISHED = Instant.parse("2026-10-01T08:00:00Z");
  private static final Duration START = Duration.ofSeconds(60);

  private Path work;

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  /** Mihon's client: the Komga source and tracker share its cookie jar (mihon core NetworkHelper.kt). */
  private final HttpClient phone = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .cookieHandler(new java.net.CookieManager(null, java.net.CookiePolicy.ACCEPT_ALL)).build();
  private final List<Path> moon = new ArrayList<>();
  private JarProcess jar;
  private int port;
  private String mihon;
  private String readOnly;

  @BeforeAll
  void start(@TempDir Path shared) throws Exception {
    work = shared;
    Path data = work.resolve("data");
    LibraryFixture library = new LibraryFixture(data);
    moon.add(library.chapter("moon", "Moon Circus", 1, 5, PUBLISHED));
    moon.add(library.chapter("moon", "Moon Circus", 2, 4, PUBLISHED.plusSeconds(3600)));
    moon.add(library.chapter("moon", "Moon Circus", 3, 3, PUBLISHED.plusSeconds(7200)));
    library.chapter("sun", "Sun Parade", 1, 2, PUBLISHED.plusSeconds(60));
    library.chapter("sun", "Sun Parade", 2, 2, PUBLISHED.plusSeconds(86_400));
    library.chapter("aster", "Aster Fair", 1, 1, PUBLISHED.minusSeconds(86_400));
    SeededReaderDb.into(data, SeededReaderDb.Account.admin(ADMIN_PASSWORD));
    port = FreePorts.next();
    jar = startJar();
    ReaderSession admin = ReaderSession.login(port, "admin", ADMIN_PASSWORD);
    assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "rita").put("password", RITA_PASSWORD)
        .put("role", "reader")).statusCode()).isEqualTo(201);
    ReaderSession rita = ReaderSession.login(port, "rita", RITA_PASSWORD);
    mihon = appPassword(rita, "Mihon on the phone", "read+progress");
    readOnly = appPassword(rita, "Panels on the tablet", "read");
  }

  @AfterAll
  void stop() {
    if (jar != null) {
      jar.close();
    }
  }

  private JarProcess startJar() {
    JarProcess process = JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD), "all",
        "--data=" + work.resolve("data"), "--port=" + port, "--health-port=" + FreePorts.next());
    await().atMost(START).pollInterval(Duration.ofMillis(100)).until(() -> {
      assertThat(process.isAlive()).as(process.output()).isTrue();
      return HttpProbe.get(port, "/health/ready").status() == 200;
    });
    return process;
  }

  private static String appPassword(ReaderSession user, String name, String scope) {
    HttpResponse<String> created = user.post("/api/me/app-passwords", new JsonObject().put("name", name)
        .put("scope", scope));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return new JsonObject(created.body()).getString("password");
  }

  @Test
  @Order(1)
  void mihonsKomgaSourceBrowsesAndReadsEverySeriesPage() throws Exception {
    // The source's first request carries no credentials: it sends them after a Basic challenge.
    HttpResponse<String> challenged = send(komga("/api/v1/series?search=&page=0&deleted=false", null));
    assertThat(challenged.statusCode()).isEqualTo(401);
    assertThat(challenged.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
        .startsWith("Basic "));

    // Filter options.
    assertThat(array(komgaJson("/api/v1/libraries"))).hasSize(1);
    assertPage(object(komgaJson("/api/v1/collections?unpaged=true")));
    for (String list : List.of("genres", "tags", "publishers", "authors")) {
      assertThat(array(komgaJson("/api/v1/" + list))).as(list).isEmpty();
    }

    // Popular (titles A to Z), latest (newest chapter first).
    JsonObject popular = object(komgaJson("/api/v1/series?search=&page=0&deleted=false&sort=metadata.titleSort%2Casc"));
    assertPage(popular);
    assertThat(titles(popular)).containsExactly("Aster Fair", "Moon Circus", "Sun Parade");
    popular.getJsonArray("content").forEach(s -> assertSeries((JsonObject) s));
    JsonObject latest = object(komgaJson("/api/v1/series?search=&page=0&deleted=false&sort=lastModifiedDate%2Cdesc"));
    assertThat(titles(latest)).containsExactly("Sun Parade", "Moon Circus", "Aster Fair");

    // Search with the "Unread" filter (KomgaFilters.kt's UnreadFilter adds UNREAD and IN_PROGRESS).
    JsonObject search = object(komgaJson("/api/v1/series?search=circus&page=0&deleted=false"
        + "&read_status=UNREAD&read_status=IN_PROGRESS&sort=metadata.titleSort%2Casc"));
    assertThat(titles(search)).containsExactly("Moon Circus");
    String seriesId = search.getJsonArray("content").getJsonObject(0).getString("id");

    // Details, chapter list, page lists and every page image of every chapter.
    assertSeries(object(komgaJson("/api/v1/series/" + seriesId)));
    JsonArray books = object(komgaJson("/api/v1/series/" + seriesId
        + "/books?unpaged=true&media_status=READY&deleted=false")).getJsonArray("content");
    assertThat(books).hasSize(3);
    for (int b = 0; b < books.size(); b++) {
      JsonObject book = books.getJsonObject(b);
      assertBook(book);
      assertThat(book.getJsonObject("metadata").getDouble("numberSort")).isEqualTo(b + 1.0);
      String bookUrl = "/api/v1/books/" + book.getString("id");
      JsonArray pages = array(komgaJson(bookUrl + "/pages"));
      assertThat(pages).hasSize(book.getJsonObject("media").getInteger("pagesCount"));
      for (int p = 0; p < pages.size(); p++) {
        JsonObject page = pages.getJsonObject(p);
        assertKeys("PageDto", page, Map.of("number", Integer.class, "fileName", String.class,
            "mediaType", String.class));
        HttpResponse<byte[]> image = bytes(komga(bookUrl + "/pages/" + page.getInteger("number"), mihon)
            .header("Accept", "image/*,*/*;q=0.8"));
        assertThat(image.statusCode()).isEqualTo(200);
        assertThat(image.body()).as(bookUrl + " page " + page.getInteger("number"))
            .isEqualTo(Files.readAllBytes(moon.get(b).resolve(page.getString("fileName"))));
      }
    }
    // The API key header instead of Basic (the source's "API key" setting): same answers, no challenge needed.
    HttpResponse<String> byKey = send(HttpRequest.newBuilder(uri("/komga/api/v1/series/" + seriesId))
        .header("User-Agent", KOMGA_UA).header("X-API-Key", mihon));
    assertThat(byKey.statusCode()).as(byKey.body()).isEqualTo(200);
  }

  @Test
  @Order(2)
  void progressMovesBetweenTheBrowserTheTrackerOpdsAndKoreaderBothWays() throws Exception {
    ReaderSession browser = ReaderSession.login(port, "rita", RITA_PASSWORD);
    String series = "/api/v1/series/moon";
    // The series opened in the source, which signs in; the tracker, bound to it, rides on that sign-in's cookie.
    assertThat(source(series).statusCode()).isEqualTo(200);

    // Read to page 5 (the last) of chapter 1 in the browser: the tracker's refresh reports chapter 1 read.
    assertThat(browser.put("/api/progress/moon", new JsonObject().put("chapter", "chapter-0001").put("page", 5))
        .statusCode()).isEqualTo(200);
    JsonObject tracked = trackerRefresh(series);
    assertThat(tracked.getDouble("lastReadContinuousNumberSort")).isEqualTo(1.0);
    assertThat(tracked.getInteger("booksReadCount")).isEqualTo(1);
    assertThat(tracked.getDouble("maxNumberSort")).isEqualTo(3.0);

    // The tracker's update to chapter 2: the browser and the OPDS catalog show chapters 1 and 2 read.
    HttpResponse<String> update = phone.send(tracker("/api/v2/series/moon/read-progress/tachiyomi")
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString("{\"lastBookNumberSortRead\":2.0}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(update.statusCode()).as(update.body()).isIn(200, 204);
    assertThat(trackerRefresh(series).getDouble("lastReadContinuousNumberSort")).isEqualTo(2.0);
    assertThat(chapterStates(browser)).containsExactly("read", "read", "unread");
    assertThat(opdsLastRead()).containsExactly("5", "4", "");

    // A read-only app password cannot move it.
    HttpResponse<String> refused = send(komga("/api/v2/series/moon/read-progress/tachiyomi", readOnly)
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString("{\"lastBookNumberSortRead\":3.0}")));
    assertThat(refused.statusCode()).isEqualTo(403);

    // KOReader: signs in, opens chapter 3's CBZ (downloaded through the Komga API) and pushes page 2 of 3.
    byte[] cbz = bytes(komga("/api/v1/books/" + bookId("moon", "chapter-0003") + "/file", mihon)).body();
    String document = partialMd5(cbz);
    HttpResponse<String> auth = send(kosync("/users/auth", mihon).GET());
    assertThat(auth.statusCode()).as(auth.body()).isEqualTo(200);
    assertThat(new JsonObject(auth.body()).getString("authorized")).isEqualTo("OK");
    HttpResponse<String> push = send(kosync("/syncs/progress", mihon).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(new JsonObject().put("document", document).put("progress", "2")
            .put("percentage", 0.6667).put("device", "Kobo Libra 2").put("device_id", "A1B2C3").encode())));
    assertThat(push.statusCode()).as(push.body()).isEqualTo(200);
    assertThat(new JsonObject(push.body()).getString("document")).isEqualTo(document);
    assertThat(new JsonObject(push.body()).getValue("timestamp")).isInstanceOf(Number.class);
    JsonObject position = new JsonObject(browser.get("/api/progress").body()).getJsonArray("progress")
        .getJsonObject(0);
    assertThat(position.getString("chapter")).isEqualTo("chapter-0003");
    assertThat(position.getInteger("page")).isEqualTo(2);

    // The browser moves on to page 3 of 3: KOReader's pull sees it.
    assertThat(browser.put("/api/progress/moon", new JsonObject().put("chapter", "chapter-0003").put("page", 3))
        .statusCode()).isEqualTo(200);
    JsonObject pulled = kosyncPull(document);
    assertThat(pulled.getString("progress")).isEqualTo("3");
    assertThat(pulled.getDouble("percentage")).isEqualTo(1.0);

    // A restart changes nothing: the tracker, the browser, KOReader, and the CBZ's bytes and digest.
    jar.close();
    jar = startJar();
    // Sessions are in memory, as Komga's: the source signs in again when the series is opened, then the tracker.
    assertThat(source(series).statusCode()).isEqualTo(200);
    assertThat(trackerRefresh(series).getDouble("lastReadContinuousNumberSort")).isEqualTo(3.0);
    assertThat(chapterStates(ReaderSession.login(port, "rita", RITA_PASSWORD))).containsExactly("read", "read",
        "read");
    assertThat(kosyncPull(document).getString("progress")).isEqualTo("3");
    byte[] again = bytes(komga("/api/v1/books/" + bookId("moon", "chapter-0003") + "/file", mihon)).body();
    assertThat(again).isEqualTo(cbz);
    assertThat(partialMd5(again)).isEqualTo(document);
  }

  /** The tracker's {@code getTrackSearch}: the series, then its v2 read progress (every key it decodes checked). */
  private JsonObject trackerRefresh(String seriesUrl) throws Exception {
    HttpResponse<String> series = phone.send(tracker(seriesUrl).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(series.statusCode()).as(series.body()).isEqualTo(200);
    assertSeries(new JsonObject(series.body()));
    HttpResponse<String> progress = phone.send(tracker(seriesUrl.replace("/api/v1/series/", "/api/v2/series/")
        + "/read-progress/tachiyomi").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(progress.statusCode()).as(progress.body()).isEqualTo(200);
    JsonObject answer = new JsonObject(progress.body());
    assertKeys("ReadProgressV2Dto", answer, Map.of("booksCount", Integer.class, "booksReadCount", Integer.class,
        "booksUnreadCount", Integer.class, "booksInProgressCount", Integer.class,
        "lastReadContinuousNumberSort", Number.class, "maxNumberSort", Number.class));
    return answer;
  }

  /** KOReader's {@code get_progress}: 200 and, with a position, every key its plugin reads. */
  private JsonObject kosyncPull(String document) throws Exception {
    HttpResponse<String> pull = send(kosync("/syncs/progress/" + document, mihon).GET());
    assertThat(pull.statusCode()).as(pull.body()).isEqualTo(200);
    JsonObject answer = new JsonObject(pull.body());
    assertKeys("kosync progress", answer, Map.of("document", String.class, "progress", String.class,
        "percentage", Number.class, "device", String.class, "device_id", String.class, "timestamp", Number.class));
    return answer;
  }

  private static List<String> chapterStates(ReaderSession browser) {
    JsonArray chapters = new JsonObject(browser.get("/api/series/moon").body()).getJsonArray("chapters");
    return chapters.stream().map(c -> ((JsonObject) c).getString("state")).toList();
  }

  /** The {@code pse:lastRead} of each chapter in the catalog's series feed ("" when none). */
  private List<String> opdsLastRead() throws Exception {
    HttpResponse<byte[]> feed = bytes(HttpRequest.newBuilder(uri("/opds/v1.2/series/moon"))
        .header("Authorization", basic(readOnly)));
    assertThat(feed.statusCode()).isEqualTo(200);
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    NodeList links = factory.newDocumentBuilder().parse(new ByteArrayInputStream(feed.body()))
        .getElementsByTagNameNS("http://www.w3.org/2005/Atom", "link");
    List<String> lastRead = new ArrayList<>();
    for (int i = 0; i < links.getLength(); i++) {
      Element link = (Element) links.item(i);
      if ("http://vaemendis.net/opds-pse/stream".equals(link.getAttribute("rel"))) {
        lastRead.add(link.getAttributeNS("http://vaemendis.net/opds-pse/ns", "lastRead"));
      }
    }
    return lastRead;
  }

  private static void assertSeries(JsonObject series) {
    assertKeys("SeriesDto", series, Map.of("id", String.class, "libraryId", String.class, "name", String.class,
        "fileLastModified", String.class, "booksCount", Integer.class, "booksReadCount", Integer.class,
        "booksUnreadCount", Integer.class, "booksInProgressCount", Integer.class, "metadata", JsonObject.class,
        "booksMetadata", JsonObject.class));
    assertKeys("SeriesMetadataDto", series.getJsonObject("metadata"), Map.of("status", String.class,
        "title", String.class, "titleSort", String.class, "summary", String.class, "readingDirection", String.class,
        "publisher", String.class, "language", String.class, "genres", JsonArray.class, "tags", JsonArray.class));
    assertThat(series.getJsonObject("metadata").containsKey("ageRating")).isTrue();
  }

  private static void assertBook(JsonObject book) {
    assertKeys("BookDto", book, Map.of("id", String.class, "seriesId", String.class, "name", String.class,
        "number", Number.class, "fileLastModified", String.class, "sizeBytes", Number.class,
        "media", JsonObject.class, "metadata", JsonObject.class));
    assertThat(book.containsKey("readProgress")).as("BookDto.readProgress: null when unread, never absent").isTrue();
    assertKeys("MediaDto", book.getJsonObject("media"), Map.of("status", String.class, "mediaType", String.class,
        "pagesCount", Integer.class));
    assertKeys("BookMetadataDto", book.getJsonObject("metadata"), Map.of("title", String.class,
        "number", String.class, "numberSort", Number.class));
  }

  private static void assertKeys(String dto, JsonObject object, Map<String, Class<?>> keys) {
    keys.forEach((key, type) -> assertThat(object.getValue(key)).as(dto + "." + key + " in " + object)
        .isInstanceOf(type));
  }

  private static void assertPage(JsonObject page) {
    assertKeys("PageWrapperDto", page, Map.of("content", JsonArray.class, "empty", Boolean.class,
        "first", Boolean.class, "last", Boolean.class, "number", Integer.class, "numberOfElements", Integer.class,
        "size", Integer.class, "totalElements", Integer.class, "totalPages", Integer.class));
  }

  private static List<String> titles(JsonObject page) {
    return page.getJsonArray("content").stream()
        .map(s -> ((JsonObject) s).getJsonObject("metadata").getString("title")).toList();
  }

  private static String bookId(String series, String chapter) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString((series + "/" + chapter).getBytes(StandardCharsets.UTF_8));
  }

  /** KOReader's {@code util.partialMD5}: 1 KiB at offsets 0, then 1024 * 4^i, until past the end or 1 GiB. */
  private static String partialMd5(byte[] file) throws Exception {
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    for (int i = -1; i <= 10; i++) {
      long offset = i < 0 ? 0 : 1024L << (2 * i);
      if (offset >= file.length) {
        break;
      }
      md5.update(file, (int) offset, (int) Math.min(1024, file.length - offset));
    }
    return HexFormat.of().formatHex(md5.digest());
  }

  private static String md5Hex(String text) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static String basic(String secret) {
    return "Basic " + Base64.getEncoder().encodeToString(("rita:" + secret).getBytes(StandardCharsets.UTF_8));
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /**
   * A GET of the Komga source on Mihon's client: sent as it is, and again with Basic credentials when answered 401 with
   * a Basic challenge (the source's OkHttp authenticator); the answer keeps the cookies it sets in the phone's jar.
   */
  private HttpResponse<String> source(String path) throws Exception {
    HttpResponse<String> first = phone.send(komga(path, null).build(), HttpResponse.BodyHandlers.ofString());
    if (first.statusCode() != 401
        || !first.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic ")) {
      return first;
    }
    return phone.send(komga(path, mihon).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A request of Mihon's Komga tracker: no credentials of its own, the phone's cookie jar. */
  private HttpRequest.Builder tracker(String path) {
    return HttpRequest.newBuilder(uri("/komga" + path)).timeout(Duration.ofSeconds(10))
        .header("User-Agent", TRACKER_UA);
  }

  /** A request of a Komga client with an app password over Basic, or none. */
  private HttpRequest.Builder komga(String path, String secret) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri("/komga" + path)).timeout(Duration.ofSeconds(10))
        .header("User-Agent", KOMGA_UA);
    return secret == null ? request : request.header("Authorization", basic(secret));
  }

  private HttpRequest.Builder kosync(String path, String secret) throws Exception {
    return HttpRequest.newBuilder(uri("/kosync" + path)).timeout(Duration.ofSeconds(10))
        .header("Accept", KOSYNC_ACCEPT).header("x-auth-user", "rita").header("x-auth-key", md5Hex(secret));
  }

  private String komgaJson(String path) throws Exception {
    HttpResponse<String> answer = source(path);
    assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).as(path)
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    return answer.body();
  }

  private static JsonObject object(String json) {
    return new JsonObject(json);
  }

  private static JsonArray array(String json) {
    return new JsonArray(json);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<byte[]> bytes(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
