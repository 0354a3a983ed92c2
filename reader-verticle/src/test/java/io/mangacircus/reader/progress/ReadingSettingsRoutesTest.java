package io.mangacircus.reader.progress;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading settings over HTTP against the real reader: kept per series and per user with the user's defaults, refused
 * naming the key at fault, never for a series the account may not see, and kept across a restart.
 */
class ReadingSettingsRoutesTest {

  private static final JsonObject DOUBLE_RTL = new JsonObject().put("layout", "double").put("direction", "rtl")
      .put("fit", "height").put("offset", true).put("crop", false);
  private static final JsonObject STRIP = new JsonObject().put("layout", "strip").put("direction", "ltr")
      .put("fit", "width").put("offset", false).put("crop", true);

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeEach
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter("moon", "Moon Circus", 1, 2, Instant.parse("2026-01-02T03:04:05Z"));
    library.chapter("sun", "Sun Circus", 1, 2, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  private HttpResponse<String> send(ReaderUnderTest.Session session, String method, String path, JsonObject body)
      throws Exception {
    return reader.text(as(session, reader.request(method, path, body == null ? null : body.encode())));
  }

  private JsonObject ok(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body());
  }

  @Test
  void settingsAreKeptPerSeriesWithTheUsersDefaultsBesideThem() throws Exception {
    assertThat(ok(send(admin, "GET", "/api/series/moon/reading-settings", null)))
        .isEqualTo(new JsonObject().putNull("series").putNull("defaults"));
    assertThat(ok(send(admin, "GET", "/api/me/reading-defaults", null))).isEqualTo(new JsonObject().putNull("defaults"));

    assertThat(ok(send(admin, "PUT", "/api/me/reading-defaults", STRIP)))
        .isEqualTo(new JsonObject().put("defaults", STRIP));
    assertThat(ok(send(admin, "PUT", "/api/series/moon/reading-settings", DOUBLE_RTL)))
        .isEqualTo(new JsonObject().put("series", DOUBLE_RTL).put("defaults", STRIP));

    assertThat(ok(send(admin, "GET", "/api/series/moon/reading-settings", null)))
        .isEqualTo(new JsonObject().put("series", DOUBLE_RTL).put("defaults", STRIP));
    assertThat(ok(send(admin, "GET", "/api/series/sun/reading-settings", null)))
        .as("another series has only the defaults").isEqualTo(new JsonObject().putNull("series").put("defaults", STRIP));
    assertThat(ok(send(admin, "GET", "/api/me/reading-defaults", null))).isEqualTo(new JsonObject().put("defaults", STRIP));

    HttpResponse<String> forgotten = send(admin, "DELETE", "/api/series/moon/reading-settings", null);
    assertThat(forgotten.statusCode()).as(forgotten.body()).isEqualTo(204);
    assertThat(ok(send(admin, "GET", "/api/series/moon/reading-settings", null)))
        .isEqualTo(new JsonObject().putNull("series").put("defaults", STRIP));
  }

  @Test
  void oneUsersSettingsAreNeverAnothersAndNeedASessionNotAnAppPassword() throws Exception {
    reader.createReader(admin, "rita", "rita-password-1234");
    ReaderUnderTest.Session rita = reader.login("rita", "rita-password-1234");
    ok(send(admin, "PUT", "/api/me/reading-defaults", STRIP));
    ok(send(admin, "PUT", "/api/series/moon/reading-settings", DOUBLE_RTL));

    assertThat(ok(send(rita, "GET", "/api/series/moon/reading-settings", null)))
        .isEqualTo(new JsonObject().putNull("series").putNull("defaults"));
    assertThat(ok(send(rita, "GET", "/api/me/reading-defaults", null))).isEqualTo(new JsonObject().putNull("defaults"));
    ok(send(rita, "PUT", "/api/series/moon/reading-settings", STRIP));
    assertThat(ok(send(admin, "GET", "/api/series/moon/reading-settings", null)).getJsonObject("series"))
        .as("the admin's own choice is untouched by rita's").isEqualTo(DOUBLE_RTL);

    String app = reader.createAppPassword(rita, "phone", "read+progress").getString("password");
    HttpResponse<String> byApp = reader.text(ReaderUnderTest.basic("rita", app,
        reader.get("/api/series/moon/reading-settings")));
    assertThat(byApp.statusCode()).as("an app password: " + byApp.body()).isEqualTo(401);
  }

  @Test
  void aBadValueIsRefusedNamingItsKeyAndNothingIsKept() throws Exception {
    HttpResponse<String> badFit = send(admin, "PUT", "/api/series/moon/reading-settings",
        DOUBLE_RTL.copy().put("fit", "cover"));
    assertThat(badFit.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(badFit.body()).getString("message"))
        .isEqualTo("fit must be one of [width, height, original], not 'cover'");

    HttpResponse<String> noOffset = send(admin, "PUT", "/api/me/reading-defaults", STRIP.copy()
        .put("offset", "yes"));
    assertThat(noOffset.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(noOffset.body()).getString("message")).isEqualTo("offset must be true or false");

    HttpResponse<String> unknown = send(admin, "PUT", "/api/me/reading-defaults", STRIP.copy().put("zoom", 2));
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(unknown.body()).getString("message")).startsWith("unknown key 'zoom'");

    HttpResponse<String> missing = send(admin, "PUT", "/api/me/reading-defaults", STRIP.copy().put("layout", null));
    assertThat(new JsonObject(missing.body()).getString("message")).startsWith("layout must be one of");

    assertThat(ok(send(admin, "GET", "/api/series/moon/reading-settings", null)))
        .isEqualTo(new JsonObject().putNull("series").putNull("defaults"));
  }

  @Test
  void aSeriesTheAccountMayNotSeeOrTheLibraryDoesNotHoldIsNotFound() throws Exception {
    ok(send(admin, "PUT", "/api/admin/catalog/series/moon", new JsonObject().put("description", "")
        .put("tags", new JsonArray()).put("ageRating", "all")));
    ok(send(admin, "PUT", "/api/admin/catalog/series/sun", new JsonObject().put("description", "")
        .put("tags", new JsonArray()).put("ageRating", "18")));
    reader.createReader(admin, "kid", "kid-password-1234");
    ok(send(admin, "PUT", "/api/admin/users/kid/access", new JsonObject().put("libraries", "all")
        .put("ageLimit", "12")));
    ReaderUnderTest.Session kid = reader.login("kid", "kid-password-1234");

    ok(send(kid, "PUT", "/api/series/moon/reading-settings", STRIP));
    for (String method : new String[] {"GET", "PUT"}) {
      HttpResponse<String> hidden = send(kid, method, "/api/series/sun/reading-settings",
          method.equals("PUT") ? STRIP : null);
      assertThat(hidden.statusCode()).as(method + " of a series kid may not see: " + hidden.body()).isEqualTo(404);
      HttpResponse<String> missing = send(admin, method, "/api/series/no-such/reading-settings",
          method.equals("PUT") ? STRIP : null);
      assertThat(missing.statusCode()).as(method + " of a series the library does not hold: " + missing.body())
          .isEqualTo(404);
    }
  }

  @Test
  void settingsAreKeptAcrossARestartOfTheReader() throws Exception {
    ok(send(admin, "PUT", "/api/me/reading-defaults", STRIP));
    ok(send(admin, "PUT", "/api/series/moon/reading-settings", DOUBLE_RTL));
    reader.close();

    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);

    assertThat(ok(send(admin, "GET", "/api/series/moon/reading-settings", null)))
        .isEqualTo(new JsonObject().put("series", DOUBLE_RTL).put("defaults", STRIP));
  }
}
