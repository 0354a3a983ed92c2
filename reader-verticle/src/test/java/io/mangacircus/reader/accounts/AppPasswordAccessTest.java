package io.mangacircus.reader.accounts;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static io.mangacircus.reader.ReaderUnderTest.basic;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * App passwords as reading apps and attackers meet them, against the real reader: made in the profile and shown once,
 * accepted over HTTP Basic on reading routes only, never the account password, revoked at once, throttled with logins.
 */
class AppPasswordAccessTest {

  private static final String READER_PASSWORD = "rita-reads-a-lot-of-manga";

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;
  private ReaderUnderTest.Session rita;
  private Path chapter;

  @BeforeEach
  void start() throws Exception {
    chapter = new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 3, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "rita", READER_PASSWORD);
    rita = reader.login("rita", READER_PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void anAppPasswordIsShownOnceListedWithoutItsSecretAndShowsWhenItWasLastUsed() throws Exception {
    JsonObject created = reader.createAppPassword(rita, "Panels on the iPad");
    String secret = created.getString("password");
    assertThat(secret).hasSize(AppPasswords.LENGTH);
    assertThat(created.getString("username")).isEqualTo("rita");

    JsonArray before = list(rita);
    assertThat(before).hasSize(1);
    assertThat(before.getJsonObject(0).getString("name")).isEqualTo("Panels on the iPad");
    assertThat(before.getJsonObject(0).getString("lastUsedAt")).isNull();
    assertThat(before.encode()).doesNotContain(secret);
    assertThat(Files.readString(data.resolve("reader.db"), java.nio.charset.StandardCharsets.ISO_8859_1))
        .as("stored hashed, never in clear").doesNotContain(secret);

    HttpResponse<byte[]> page = reader.bytes(basic("rita", secret,
        reader.get("/api/series/moon/chapters/chapter-0001/pages/2")));
    assertThat(page.statusCode()).as(new String(page.body(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(200);
    assertThat(page.body()).isEqualTo(Files.readAllBytes(chapter.resolve("002.png")));

    assertThat(list(rita).getJsonObject(0).getString("lastUsedAt")).isNotNull();
  }

  @Test
  void theAccountPasswordIsRefusedOverBasicEvenOnReadingRoutes() throws Exception {
    HttpResponse<String> answer = reader.text(basic("rita", READER_PASSWORD,
        reader.get("/api/series/moon/chapters/chapter-0001/pages/1")));

    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
        .startsWith("Basic realm="));
  }

  @Test
  void anAppPasswordOpensNoAdminAccountBridgeOrStateChangingRoute() throws Exception {
    JsonObject created = reader.createAppPassword(admin, "admin's tablet");
    String secret = created.getString("password");
    assertThat(reader.text(basic("admin", secret, reader.get("/api/series/moon/cover"))).statusCode())
        .as("it works where it may").isEqualTo(200);

    String[][] refused = {
        {"GET", "/api/admin/users", null},
        {"POST", "/api/admin/users", "{\"username\": \"mallory\", \"password\": \"a-long-password\", \"role\": "
            + "\"admin\"}"},
        {"GET", "/api/admin/status", null},
        {"POST", "/api/system/shutdown", "{}"},
        {"PUT", "/api/progress/moon", "{\"chapter\": \"chapter-0001\", \"page\": 2}"},
        {"PUT", "/api/series/moon/chapters/chapter-0001/read", "{\"read\": true}"},
        {"GET", "/api/me", null},
        {"POST", "/api/logout", "{}"},
        {"GET", "/api/me/app-passwords", null},
        {"POST", "/api/me/app-passwords", "{\"name\": \"another\"}"},
        {"GET", "/api/series", null},
        {"GET", "/eventbus/info", null},
    };
    for (String[] route : refused) {
      HttpResponse<String> answer = reader.text(basic("admin", secret, reader.request(route[0], route[1], route[2])));
      assertThat(answer.statusCode()).as(route[0] + " " + route[1] + ": " + answer.body()).isIn(401, 403);
    }
    assertThat(reader.text(as(admin, reader.get("/api/admin/users"))).body()).doesNotContain("mallory");
  }

  @Test
  void aRevokedAppPasswordIsRefusedFromTheNextRequestOn() throws Exception {
    JsonObject created = reader.createAppPassword(rita, "KOReader");
    String secret = created.getString("password");
    HttpRequest.Builder page = reader.get("/api/series/moon/chapters/chapter-0001/pages/1");
    assertThat(reader.text(basic("rita", secret, page)).statusCode()).isEqualTo(200);

    HttpResponse<String> revoked = reader.text(as(rita, reader.request("DELETE", "/api/me/app-passwords/"
        + created.getLong("id"), null)));
    assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(204);

    assertThat(reader.text(basic("rita", secret, page)).statusCode()).isEqualTo(401);
    assertThat(list(rita)).isEmpty();
  }

  @Test
  void anotherUsersAppPasswordCannotBeRevoked() throws Exception {
    long id = reader.createAppPassword(admin, "admin's").getLong("id");

    HttpResponse<String> answer = reader.text(as(rita, reader.request("DELETE", "/api/me/app-passwords/" + id,
        null)));

    assertThat(answer.statusCode()).isEqualTo(404);
    assertThat(list(admin)).hasSize(1);
  }

  @Test
  void aDisabledAccountsAppPasswordsAreRefusedAtOnce() throws Exception {
    String secret = reader.createAppPassword(rita, "Chunky").getString("password");
    HttpRequest.Builder page = reader.get("/api/series/moon/chapters/chapter-0001/pages/1");
    assertThat(reader.text(basic("rita", secret, page)).statusCode()).isEqualTo(200);

    HttpResponse<String> disabled = reader.text(as(admin, reader.request("PUT", "/api/admin/users/rita/disabled",
        "{\"disabled\": true}")));
    assertThat(disabled.statusCode()).as(disabled.body()).isEqualTo(200);

    assertThat(reader.text(basic("rita", secret, page)).statusCode()).isEqualTo(401);
  }

  @Test
  void failedBasicAttemptsCountInTheLoginThrottle() throws Exception {
    for (int i = 0; i < AccountRoutes.MAX_FAILURES; i++) {
      assertThat(reader.text(basic("rita", "wrong-app-password-" + i,
          reader.get("/api/series/moon/chapters/chapter-0001/pages/1"))).statusCode()).isEqualTo(401);
    }

    HttpResponse<String> login = reader.loginAnswer("rita", READER_PASSWORD);
    HttpResponse<String> basicAgain = reader.text(basic("rita", "wrong-again",
        reader.get("/api/series/moon/chapters/chapter-0001/pages/1")));

    assertThat(login.statusCode()).as("the right account password is locked out too").isEqualTo(429);
    assertThat(basicAgain.statusCode()).isEqualTo(429);
    assertThat(basicAgain.headers().firstValue("Retry-After")).isPresent();
  }

  @Test
  void aNameIsRequiredAndUniquePerUser() throws Exception {
    reader.createAppPassword(rita, "Panels");

    assertThat(reader.text(as(rita, reader.request("POST", "/api/me/app-passwords", "{\"name\": \"Panels\"}")))
        .statusCode()).isEqualTo(409);
    assertThat(reader.text(as(rita, reader.request("POST", "/api/me/app-passwords", "{\"name\": \" \"}")))
        .statusCode()).isEqualTo(400);
    assertThat(reader.createAppPassword(admin, "Panels").getString("name")).as("another user's").isEqualTo("Panels");
  }

  @Test
  void anAppPasswordReadsOnlyUnlessMadeToMoveProgressTooAndTheListSaysWhichAndThatKoreaderCanSyncWithIt()
      throws Exception {
    reader.createAppPassword(rita, "Panels");
    HttpResponse<String> created = reader.text(as(rita, reader.request("POST", "/api/me/app-passwords",
        "{\"name\": \"Mihon\", \"scope\": \"read+progress\"}")));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(new JsonObject(created.body()).getString("scope")).isEqualTo("read+progress");

    JsonArray listed = list(rita);
    assertThat(listed.getJsonObject(0).getString("scope")).isEqualTo("read");
    assertThat(listed.getJsonObject(1).getString("scope")).isEqualTo("read+progress");
    assertThat(listed.getJsonObject(1).getBoolean("koreaderSync")).isTrue();
  }

  @Test
  void anUnknownScopeIsRefusedWithTheScopesThatExist() throws Exception {
    for (String scope : new String[] {"\"write\"", "\"READ\"", "1", "[\"read\"]"}) {
      HttpResponse<String> answer = reader.text(as(rita, reader.request("POST", "/api/me/app-passwords",
          "{\"name\": \"Mihon\", \"scope\": " + scope + "}")));
      assertThat(answer.statusCode()).as(scope + ": " + answer.body()).isEqualTo(400);
      assertThat(answer.body()).contains("read+progress");
    }
    assertThat(list(rita)).isEmpty();
  }

  private JsonArray list(ReaderUnderTest.Session session) throws Exception {
    HttpResponse<String> answer = reader.text(as(session, reader.get("/api/me/app-passwords")));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body()).getJsonArray("appPasswords");
  }
}
