package io.mangacircus.reader.kosync;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.accounts.AppPasswords;
import io.mangacircus.reader.library.ChapterArchives;
import io.mangacircus.reader.library.KoreaderDigest;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.OpenPageFiles;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * KOReader's sync requests against a real reader (real HTTP, real SQLite), as its plugin sends them: the routes and
 * expected statuses of koreader plugins/kosync.koplugin/api.json, the headers of KOSyncClient.lua ({@code accept:
 * application/vnd.koreader.v1+json}, {@code x-auth-user}, {@code x-auth-key} = MD5 hex of the password, main.lua
 * {@code md5(password)}), the push body of main.lua {@code updateProgress} ({@code document, progress = tostring(page),
 * percentage, device, device_id}, optional {@code metadata}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KosyncReplayTest {

  private static final String READER_PASSWORD = "rita-reads-a-lot-of-manga";
  private static final String ACCEPT = "application/vnd.koreader.v1+json";

  @TempDir
  static Path data;

  private ReaderUnderTest reader;
  private ReaderStores stores;
  private ReaderUnderTest.Session rita;

  /** Rita's app passwords: one that may move progress, one that may only read (KOReader sends their MD5). */
  private String syncPassword;
  private String readOnlyPassword;

  /**
   * The reader's own check of KOReader keys (the app passwords' sync keys, as the reader wires it), over the stores
   * the test also reads.
   */
  private final Function<ReaderStores, KosyncAccounts> keys = opened -> {
    stores = opened;
    return KosyncAccounts.appPasswords(new AppPasswords(opened.appPasswords(), java.time.Clock.systemUTC()));
  };

  @BeforeAll
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    for (int n = 1; n <= 3; n++) {
      library.chapter("moon", "Moon Circus", n, 3 + n, Instant.parse("2026-01-0" + n + "T03:04:05Z"));
    }
    library.chapter("sun", "Sun Parade", 1, 2, Instant.parse("2026-02-01T00:00:00Z"));
    library.chapter("sun", "Sun Parade", 2, 2, Instant.parse("2026-03-01T00:00:00Z"));
    library.chapter("aster", "Aster Fair", 1, 4, Instant.parse("2025-12-01T00:00:00Z"));
    reader = ReaderUnderTest.start(data, List.of(), keys);
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "rita", READER_PASSWORD);
    rita = reader.login("rita", READER_PASSWORD);
    syncPassword = reader.createAppPassword(rita, "Kobo", "read+progress").getString("password");
    readOnlyPassword = reader.createAppPassword(rita, "Shelf", "read").getString("password");
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void koreaderAuthorizesPushesAndPullsAChapterAndARestartChangesNothing() throws Exception {
    HttpResponse<String> register = send(kosync("POST", "/users/create",
        "{\"username\": \"rita\", \"password\": \"" + md5(syncPassword) + "\"}"));
    assertThat(register.statusCode()).isEqualTo(402);
    assertThat(new JsonObject(register.body()).getInteger("code")).isEqualTo(2005);
    HttpResponse<String> auth = send(signed(kosync("GET", "/users/auth", null), syncPassword));
    assertThat(auth.statusCode()).as(auth.body()).isEqualTo(200);
    assertThat(new JsonObject(auth.body())).isEqualTo(new JsonObject().put("authorized", "OK"));

    byte[] cbz = reader.bytes(as(rita, reader.get("/api/series/moon/chapters/chapter-0002.cbz"))).body();
    String binary = KoreaderDigest.partialMd5(cbz);
    String byName = md5("Moon Circus - 2.cbz");
    await().atMost(Duration.ofSeconds(10)).until(() -> stores.kosync().document(binary).isPresent()
        && stores.kosync().document(byName).isPresent());

    HttpResponse<String> pushed = send(signed(kosync("PUT", "/syncs/progress", new JsonObject()
        .put("document", binary).put("progress", "3").put("percentage", 0.6).put("device", "Kobo Libra 2")
        .put("device_id", "A1B2C3").encode()), syncPassword));
    assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(200);
    JsonObject accepted = new JsonObject(pushed.body());
    assertThat(accepted.getString("document")).isEqualTo(binary);
    assertThat(accepted.getValue("timestamp")).isInstanceOf(Number.class);

    JsonObject browser = progressIn("moon");
    assertThat(browser.getString("chapter")).isEqualTo("chapter-0002");
    assertThat(browser.getInteger("page")).isEqualTo(3);

    JsonObject pulled = pull(binary);
    assertThat(pulled.fieldNames()).containsExactlyInAnyOrder("percentage", "progress", "device", "device_id",
        "timestamp", "document");
    assertThat(pulled.getString("progress")).isEqualTo("3");
    assertThat(pulled.getDouble("percentage")).isEqualTo(0.6);
    assertThat(pulled.getString("device")).isEqualTo("Kobo Libra 2");
    assertThat(pulled.getString("device_id")).isEqualTo("A1B2C3");
    assertThat(pulled.getLong("timestamp")).isEqualTo(accepted.getLong("timestamp"));
    assertThat(pulled.getString("document")).isEqualTo(binary);

    HttpResponse<String> moved = reader.text(as(rita, reader.request("PUT", "/api/progress/moon",
        "{\"chapter\": \"chapter-0002\", \"page\": 2}")));
    assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
    JsonObject fromBrowser = pull(byName);
    assertThat(fromBrowser.getString("progress")).isEqualTo("2");
    assertThat(fromBrowser.getDouble("percentage")).isEqualTo(0.4);
    assertThat(fromBrowser.getString("device")).isEqualTo(KosyncRoutes.OWN_DEVICE);
    assertThat(fromBrowser.getString("document")).isEqualTo(byName);

    reader.close();
    reader = ReaderUnderTest.start(data, List.of(), keys);
    rita = reader.login("rita", READER_PASSWORD);
    assertThat(pull(binary).getString("progress")).isEqualTo("2");
    HttpResponse<String> again = send(signed(kosync("PUT", "/syncs/progress", new JsonObject()
        .put("document", byName).put("progress", "4").put("percentage", 0.8).put("device", "Kobo Libra 2")
        .put("device_id", "A1B2C3").encode()), syncPassword));
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    assertThat(progressIn("moon").getInteger("page")).isEqualTo(4);
    assertThat(pull(binary).getString("device")).isEqualTo("Kobo Libra 2");
  }

  @Test
  void aCbzFetchedBeforeItsIdWasRecordedIsFoundAmongTheUsersRecentChapters() throws Exception {
    HttpResponse<String> reading = reader.text(as(rita, reader.request("PUT", "/api/progress/sun",
        "{\"chapter\": \"chapter-0001\", \"page\": 1}")));
    assertThat(reading.statusCode()).as(reading.body()).isEqualTo(200);
    String next = new ChapterArchives(new OpenPageFiles(4, Duration.ofSeconds(1), InstantSource.system()))
        .koreaderDigest(new LibraryFiles(data.resolve("library")), "sun", "chapter-0002");
    assertThat(stores.kosync().document(next)).isEmpty();

    HttpResponse<String> pushed = send(signed(kosync("PUT", "/syncs/progress", new JsonObject()
        .put("document", next).put("progress", "1").put("percentage", 0.5).put("device", "Kindle")
        .put("device_id", "K1").encode()), syncPassword));
    assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(200);
    JsonObject browser = progressIn("sun");
    assertThat(browser.getString("chapter")).isEqualTo("chapter-0002");
    assertThat(browser.getInteger("page")).isEqualTo(1);
    assertThat(stores.kosync().document(next)).isPresent();
  }

  @Test
  void badRequestsAnswerInKosyncsErrorShape() throws Exception {
    String aster = asterDigest();
    assertError(send(kosync("GET", "/users/auth", null)), 401, 2001);
    assertError(send(signed(kosync("GET", "/users/auth", null), "wrong-password")), 401, 2001);
    assertError(send(signed(kosync("GET", "/users/auth", null), READER_PASSWORD)), 401, 2001);
    assertError(send(signed(kosync("GET", "/syncs/progress/" + aster, null), "wrong-password")), 401, 2001);
    assertError(push(readOnlyPassword, new JsonObject().put("document", aster).put("progress", "2")
        .put("percentage", 0.5).put("device", "Kobo").put("device_id", "D")), 403, 2001);
    assertThat(send(signed(kosync("GET", "/users/auth", null), readOnlyPassword)).statusCode()).isEqualTo(200);
    assertError(push(syncPassword, new JsonObject().put("document", "a:b").put("progress", "2")
        .put("percentage", 0.5).put("device", "Kobo").put("device_id", "D")), 403, 2004);
    assertError(push(syncPassword, new JsonObject().put("progress", "2").put("percentage", 0.5)
        .put("device", "Kobo").put("device_id", "D")), 403, 2004);
    assertError(push(syncPassword, new JsonObject().put("document", aster).put("progress", "page two")
        .put("percentage", 0.5).put("device", "Kobo").put("device_id", "D")), 403, 2003);
    assertError(push(syncPassword, new JsonObject().put("document", aster).put("progress", "2")
        .put("percentage", "half").put("device", "Kobo").put("device_id", "D")), 403, 2003);
    assertError(push(syncPassword, new JsonObject().put("document", aster).put("progress", "2")
        .put("percentage", 0.5)), 403, 2003);
    assertError(send(signed(kosync("PUT", "/syncs/progress", "{\"document\": "), syncPassword)), 403, 2003);
    assertError(send(signed(kosync("PUT", "/syncs/progress", new JsonObject().put("document", aster)
        .put("metadata", "x".repeat(KosyncRoutes.MAX_BODY_BYTES)).encode()), syncPassword)), 413, 2003);
    assertThat(progressIn("aster")).isNull();
  }

  @Test
  void aDocumentThatNamesNoChapterIsKeptAsSentSoThatDevicesStillSync() throws Exception {
    String elsewhere = md5("A Novel From Elsewhere.epub");
    assertThat(pull(elsewhere)).isEqualTo(new JsonObject());
    HttpResponse<String> pushed = push(syncPassword, new JsonObject().put("document", elsewhere)
        .put("progress", "/body/DocFragment[10]/body/div/p[1]/text().0").put("percentage", 0.42)
        .put("device", "Kobo").put("device_id", "D1")
        .put("metadata", new JsonObject().put("filename", "A Novel From Elsewhere.epub")));
    assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(200);
    JsonObject pulled = pull(elsewhere);
    assertThat(pulled.getString("progress")).isEqualTo("/body/DocFragment[10]/body/div/p[1]/text().0");
    assertThat(pulled.getDouble("percentage")).isEqualTo(0.42);
    assertThat(pulled.getString("device_id")).isEqualTo("D1");
  }

  private String asterDigest() throws Exception {
    byte[] cbz = reader.bytes(as(rita, reader.get("/api/series/aster/chapters/chapter-0001.cbz"))).body();
    String digest = KoreaderDigest.partialMd5(cbz);
    await().atMost(Duration.ofSeconds(10)).until(() -> stores.kosync().document(digest).isPresent());
    return digest;
  }

  private JsonObject progressIn(String series) throws Exception {
    HttpResponse<String> list = reader.text(as(rita, reader.get("/api/progress")));
    assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
    return new JsonObject(list.body()).getJsonArray("progress").stream().map(JsonObject.class::cast)
        .filter(p -> series.equals(p.getString("series"))).findFirst().orElse(null);
  }

  private JsonObject pull(String document) throws Exception {
    HttpResponse<String> pulled = send(signed(kosync("GET", "/syncs/progress/" + document, null), syncPassword));
    assertThat(pulled.statusCode()).as(pulled.body()).isEqualTo(200);
    return new JsonObject(pulled.body());
  }

  private HttpResponse<String> push(String password, JsonObject body) throws Exception {
    return send(signed(kosync("PUT", "/syncs/progress", body.encode()), password));
  }

  private static void assertError(HttpResponse<String> answer, int status, int code) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
    JsonObject error = new JsonObject(answer.body());
    assertThat(error.getInteger("code")).as(answer.body()).isEqualTo(code);
    assertThat(error.getString("message")).isNotBlank();
  }

  private HttpRequest.Builder kosync(String method, String path, String body) {
    return reader.request(method, KosyncRoutes.MOUNT + path, body).header("Accept", ACCEPT);
  }

  private static HttpRequest.Builder signed(HttpRequest.Builder request, String password) {
    return request.header("x-auth-user", "rita").header("x-auth-key", md5(password));
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return reader.text(request);
  }

  private static String md5(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

}
