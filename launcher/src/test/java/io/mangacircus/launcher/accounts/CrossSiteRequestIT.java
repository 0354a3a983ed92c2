package io.mangacircus.launcher.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests another site's page can make a browser send: a login CSRF with a {@code text/plain} body, changes from a
 * foreign {@code Origin}; and what stays open: same-site pages, scripts without an {@code Origin}, the admin token.
 */
class CrossSiteRequestIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String ADMIN_TOKEN = "admin-token-for-scripts-";
  private static final String EVIL = "http://evil.example";

  @TempDir
  Path data;

  private LauncherHarness harness;
  private byte[] credentials;

  @BeforeEach
  void start() {
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject()
        .put("initialAdminPassword", ADMIN_PASSWORD).put("adminToken", ADMIN_TOKEN)).encode()).startStandard(Mode.ALL);
    credentials = new JsonObject().put("username", "admin").put("password", ADMIN_PASSWORD).encode()
        .getBytes(StandardCharsets.UTF_8);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private HttpResponse<String> login(String... headers) {
    return ReaderSession.raw(harness.port(), "POST", "/api/login", credentials, headers);
  }

  private static void assertRefused(HttpResponse<String> answer, int status, String error) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
    assertThat(new JsonObject(answer.body()).getString("error")).isEqualTo(error);
    assertThat(answer.headers().firstValue("Set-Cookie")).as("no session for anyone").isEmpty();
  }

  @Test
  void aTextPlainLoginFromAnotherSiteOpensNoSession() {
    // What a <form enctype="text/plain"> or a no-preflight fetch on evil.example sends.
    assertRefused(login("Content-Type", "text/plain", "Origin", EVIL), 403, "cross_site");
    assertRefused(login("Content-Type", "text/plain;charset=UTF-8"), 415, "unsupported_media_type");
    assertRefused(login("Content-Type", "application/x-www-form-urlencoded"), 415, "unsupported_media_type");
    assertRefused(login(), 415, "unsupported_media_type");
    // A refused body is read to its end before the answer, so the answer arrives whole.
    HttpResponse<String> padded = ReaderSession.raw(harness.port(), "POST", "/api/login",
        "x".repeat(32 * 1024).getBytes(StandardCharsets.UTF_8), "Content-Type", "text/plain", "Origin", EVIL);
    assertRefused(padded, 403, "cross_site");
  }

  @Test
  void aJsonLoginFromAnotherSiteIsRefusedAndFromThisSiteAccepted() {
    assertRefused(login("Content-Type", "application/json", "Origin", EVIL), 403, "cross_site");
    assertRefused(login("Content-Type", "application/json", "Origin", "null"), 403, "cross_site");
    assertRefused(login("Content-Type", "application/json",
        "Origin", "http://127.0.0.1:" + (harness.port() + 1)), 403, "cross_site");

    HttpResponse<String> here = login("Content-Type", "application/json; charset=utf-8",
        "Origin", "http://127.0.0.1:" + harness.port());
    assertThat(here.statusCode()).as(here.body()).isEqualTo(200);
    assertThat(here.headers().firstValue("Set-Cookie"))
        .hasValueSatisfying(c -> assertThat(c).startsWith("mc_session="));
    assertThat(login("Content-Type", "application/json").statusCode()).as("a script sends no Origin").isEqualTo(200);
  }

  @Test
  void aChangeFromAnotherSiteIsRefusedEvenWithTheSessionAndItsCsrfToken() {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    byte[] user = new JsonObject().put("username", "mallory").put("password", "mallory-password").put("role", "admin")
        .encode().getBytes(StandardCharsets.UTF_8);

    HttpResponse<String> refused = admin.request("POST", "/api/admin/users", user, "Content-Type", "application/json",
        "Origin", EVIL);

    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(new JsonObject(refused.body()).getString("error")).isEqualTo("cross_site");
    assertThat(admin.get("/api/admin/users").body()).doesNotContain("mallory");
    assertThat(admin.request("POST", "/api/admin/users", user, "Content-Type", "text/plain").statusCode())
        .isEqualTo(415);
    assertThat(admin.get("/api/admin/users").body()).doesNotContain("mallory");
    assertThat(admin.request("POST", "/api/admin/users", user, "Content-Type", "application/json",
        "Origin", "http://127.0.0.1:" + harness.port()).statusCode()).as("this site's own page").isEqualTo(201);
  }

  @Test
  void scriptsWithTheAdminTokenStillChangeThingsWithJson() {
    AdminApi api = new AdminApi(harness.port(), ADMIN_TOKEN);

    HttpProbe.Answer changed = api.put("/api/admin/discovery", new JsonObject().put("enabled", false));

    assertThat(changed.status()).as(changed.body()).isIn(200, 503);
    HttpResponse<String> plain = ReaderSession.raw(harness.port(), "PUT", "/api/admin/discovery",
        "{\"enabled\": false}".getBytes(StandardCharsets.UTF_8), "Authorization", "Bearer " + ADMIN_TOKEN,
        "Content-Type", "text/plain");
    assertThat(plain.statusCode()).isEqualTo(415);
    assertThat(new JsonObject(plain.body()).getString("error")).isEqualTo("unsupported_media_type");
  }

  @Test
  void systemInfoIsReadableWithoutASessionAsTheApiDocumentSays() {
    HttpProbe.Answer info = HttpProbe.get(harness.port(), "/api/system/info");

    assertThat(info.status()).as(info.body()).isEqualTo(200);
    assertThat(info.json().getString("service")).isEqualTo("reader");
    assertThat(info.json().fieldNames()).containsExactlyInAnyOrder("service", "instance", "startedAt", "version");
    assertThat(ReaderSession.raw(harness.port(), "POST", "/api/system/info", null).statusCode())
        .as("only reading it is open").isEqualTo(401);
  }
}
