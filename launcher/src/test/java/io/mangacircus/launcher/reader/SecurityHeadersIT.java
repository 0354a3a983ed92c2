package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
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

/** The security headers on every kind of answer of the reader's port: pages, API, 404s, errors, health. */
class SecurityHeadersIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";

  @TempDir
  Path data;

  private LauncherHarness harness;

  @BeforeEach
  void start() {
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  private HttpResponse<String> get(String path, String... headers) {
    return ReaderSession.raw(harness.port(), "GET", path, null, headers);
  }

  private static void assertHardened(String what, HttpResponse<String> answer) {
    String policy = answer.headers().firstValue("Content-Security-Policy").orElse("");
    assertThat(policy).as(what + ": Content-Security-Policy").contains("default-src 'self'", "script-src 'self'",
        "style-src 'self'", "frame-ancestors 'none'", "object-src 'none'").doesNotContain("unsafe-inline",
        "unsafe-eval", "*");
    assertThat(answer.headers().firstValue("X-Content-Type-Options")).as(what).hasValue("nosniff");
    assertThat(answer.headers().firstValue("Referrer-Policy")).as(what).hasValue("same-origin");
    assertThat(answer.headers().firstValue("X-Frame-Options")).as(what).hasValue("DENY");
  }

  @Test
  void everyKindOfAnswerCarriesTheSecurityHeaders() {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);

    HttpResponse<String> page = get("/login.html");
    assertThat(page.statusCode()).isEqualTo(200);
    assertHardened("an HTML page", page);
    HttpResponse<String> adminPage = admin.get("/admin/health.html");
    assertThat(adminPage.statusCode()).isEqualTo(200);
    assertHardened("an admin page", adminPage);
    assertHardened("a script", get("/js/api.js"));
    HttpResponse<String> me = admin.get("/api/me");
    assertThat(me.statusCode()).isEqualTo(200);
    assertHardened("an API answer", me);

    HttpResponse<String> missingPage = get("/no-such-page.html");
    assertThat(missingPage.statusCode()).isEqualTo(404);
    assertHardened("a missing page", missingPage);
    HttpResponse<String> missingRoute = admin.get("/api/no-such-route");
    assertThat(missingRoute.statusCode()).isEqualTo(404);
    assertHardened("a missing API route", missingRoute);
    HttpResponse<String> unauthorized = get("/api/me");
    assertThat(unauthorized.statusCode()).isEqualTo(401);
    assertHardened("a 401", unauthorized);
    HttpResponse<String> tooLarge = ReaderSession.raw(harness.port(), "POST", "/api/login",
        ("{\"username\": \"" + "x".repeat(70_000) + "\"}").getBytes(StandardCharsets.UTF_8),
        "Content-Type", "application/json");
    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(new JsonObject(tooLarge.body()).getString("error")).as("in the JSON error shape too")
        .isEqualTo("too_large");
    assertHardened("a failed request", tooLarge);
    assertHardened("health", get("/health/live"));
  }
}
