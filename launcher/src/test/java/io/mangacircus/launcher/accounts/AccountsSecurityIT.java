package io.mangacircus.launcher.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Accounts on the real reader: login, session cookie flags, CSRF, throttling, roles, traversal. */
class AccountsSecurityIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";

  @TempDir
  Path data;

  private LauncherHarness harness;

  @BeforeEach
  void start() {
    SeededReaderDb.into(data, Account.admin(ADMIN_PASSWORD), Account.reader("kid", "reader-pass-1"));
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private HttpResponse<String> send(String method, String path, String body, String... headers) {
    return ReaderSession.send(harness.port(), method, path, body, headers);
  }

  private HttpResponse<String> login(String user, String password) throws Exception {
    return send("POST", "/api/login", new JsonObject().put("username", user).put("password", password).encode());
  }

  private static String cookie(HttpResponse<String> login) {
    String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  @Test
  void loginSetsAStrictHttpOnlySessionCookieThatOpensTheApi() throws Exception {
    assertThat(send("GET", "/api/me", null).statusCode()).isEqualTo(401);

    HttpResponse<String> login = login("admin", ADMIN_PASSWORD);

    assertThat(login.statusCode()).isEqualTo(200);
    String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(setCookie).startsWith("mc_session=").containsIgnoringCase("HttpOnly").contains("SameSite=Strict", "Path=/")
        .doesNotContain("Secure");
    assertThat(new JsonObject(login.body()).getString("role")).isEqualTo("admin");
    HttpResponse<String> me = send("GET", "/api/me", null, "Cookie", cookie(login));
    assertThat(me.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(me.body()).getString("username")).isEqualTo("admin");
    assertThat(send("GET", "/api/admin/jobs", null, "Cookie", cookie(login)).statusCode())
        .as("an admin session reaches admin routes (503 only while the scraper is still starting)").isIn(200, 503);
    assertThat(send("POST", "/api/admin/jobs/j-none/pause", null, "Cookie", cookie(login),
        "X-CSRF-Token", new JsonObject(login.body()).getString("csrfToken")).statusCode())
        .as("a state-changing admin request with a session and its CSRF token reaches the scraper").isIn(404, 503);
  }

  @Test
  void behindTlsTheCookieIsSecure() throws Exception {
    HttpResponse<String> login = send("POST", "/api/login", new JsonObject().put("username", "admin")
        .put("password", ADMIN_PASSWORD).encode(), "X-Forwarded-Proto", "https");

    assertThat(login.headers().firstValue("Set-Cookie").orElseThrow()).contains("Secure");
  }

  @Test
  void aStateChangingRequestWithoutTheCsrfTokenIsRefused() throws Exception {
    HttpResponse<String> login = login("admin", ADMIN_PASSWORD);
    String csrf = new JsonObject(login.body()).getString("csrfToken");

    assertThat(send("POST", "/api/logout", null, "Cookie", cookie(login)).statusCode()).isEqualTo(403);
    assertThat(send("POST", "/api/logout", null, "Cookie", cookie(login), "X-CSRF-Token", "forged").statusCode())
        .isEqualTo(403);
    assertThat(send("POST", "/api/logout", null, "Cookie", cookie(login), "X-CSRF-Token", csrf).statusCode())
        .isEqualTo(204);
    assertThat(send("GET", "/api/me", null, "Cookie", cookie(login)).statusCode()).as("logged out").isEqualTo(401);
  }

  @Test
  void repeatedWrongPasswordsAreThrottledEvenBeforeTheRightOne() throws Exception {
    for (int i = 0; i < 5; i++) {
      assertThat(login("admin", "wrong-" + i).statusCode()).isEqualTo(401);
    }

    HttpResponse<String> throttled = login("admin", ADMIN_PASSWORD);

    assertThat(throttled.statusCode()).isEqualTo(429);
    assertThat(throttled.headers().firstValue("Retry-After")).isPresent();
  }

  @Test
  void aReaderAccountCannotOpenAdminRoutes() throws Exception {
    HttpResponse<String> login = login("kid", "reader-pass-1");
    assertThat(login.statusCode()).isEqualTo(200);

    HttpResponse<String> admin = send("GET", "/api/admin/jobs", null, "Cookie", cookie(login));

    assertThat(admin.statusCode()).isEqualTo(403);
    assertThat(send("GET", "/api/me", null, "Cookie", cookie(login)).statusCode()).isEqualTo(200);
  }

  @Test
  void anOversizeBodyIsRefusedBeforeAnythingReadsIt() throws Exception {
    HttpResponse<String> answer = send("POST", "/api/login", "{\"username\": \"" + "x".repeat(70_000) + "\"}");

    assertThat(answer.statusCode()).isEqualTo(413);
  }

  @Test
  void malformedLoginsAndPathTraversalGetClearRefusals() throws Exception {
    assertThat(send("POST", "/api/login", "not json").statusCode()).isEqualTo(400);
    assertThat(send("POST", "/api/login", "{\"username\": 5}").statusCode()).isEqualTo(400);
    for (String path : new String[] {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd"}) {
      HttpResponse<String> answer = send("GET", path, null);
      assertThat(answer.statusCode()).as(path).isIn(400, 404);
      assertThat(answer.body()).as(path).doesNotContain("root:");
    }
  }
}
