package io.mangacircus.reader.komga;

import static io.mangacircus.reader.ReaderUnderTest.basic;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mihon's Komga tracker sends no credentials (mihonapp/mihon {@code data/track/komga/KomgaApi.kt} uses the app's
 * client, which shares its cookie jar with the Komga source but has no authenticator): it is let in by the session
 * cookie the source's Basic login left, with that app password's scope, and by nothing else.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KomgaTrackerSessionTest {

  private static final String TRACKER = "/komga/api/v2/series/moon/read-progress/tachiyomi";

  @TempDir
  static Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeAll
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter("moon", "Moon Circus", 1, 3, Instant.parse("2026-01-01T03:04:05Z"));
    library.chapter("moon", "Moon Circus", 2, 3, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void theTrackerIsLetInByTheCookieTheSourcesBasicLoginLeftWithItsScope() throws Exception {
    ReaderUnderTest.Session ivy = user("ivy");
    String mihon = reader.createAppPassword(ivy, "Mihon", "read+progress").getString("password");
    String panels = reader.createAppPassword(ivy, "Panels", "read").getString("password");
    String cookie = sourceLogin("ivy", mihon);
    String readOnly = sourceLogin("ivy", panels);

    HttpResponse<String> refreshed = reader.text(reader.get(TRACKER).header("Cookie", cookie));
    assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
    assertThat(new JsonObject(refreshed.body()).getInteger("booksUnreadCount")).isEqualTo(2);
    assertThat(reader.text(update(1.0).header("Cookie", cookie)).statusCode()).isEqualTo(204);
    assertThat(new JsonObject(reader.text(reader.get(TRACKER).header("Cookie", cookie)).body())
        .getDouble("lastReadContinuousNumberSort")).isEqualTo(1.0);
    assertThat(reader.text(update(2.0).header("Cookie", readOnly)).statusCode())
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
    assertThat(reader.text(reader.get(TRACKER).header("Cookie", cookie)).statusCode()).isEqualTo(200);

    HttpResponse<String> revoked = reader.text(ReaderUnderTest.as(una, reader.request("DELETE",
        "/api/me/app-passwords/" + made.getLong("id"), null)));
    assertThat(revoked.statusCode()).isEqualTo(204);

    HttpResponse<String> after = reader.text(reader.get(TRACKER).header("Cookie", cookie));
    assertThat(after.statusCode()).isEqualTo(401);
    assertThat(after.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
        .startsWith("Basic "));
  }

  @Test
  void aForgedOrUnknownSessionCookieIsNotLetIn() throws Exception {
    for (String value : new String[] {"", "x", "A".repeat(43), "A".repeat(5000)}) {
      assertThat(reader.text(reader.get(TRACKER).header("Cookie", "mc_app_session=" + value)).statusCode())
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

  private HttpRequest.Builder update(double number) {
    return reader.request("PUT", TRACKER, new JsonObject().put("lastBookNumberSortRead", number).encode());
  }

  private ReaderUnderTest.Session user(String name) throws Exception {
    reader.createReader(admin, name, name + "-reads-a-lot-of-manga");
    return reader.login(name, name + "-reads-a-lot-of-manga");
  }
}
