package io.mangacircus.reader.accounts;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static io.mangacircus.reader.ReaderUnderTest.basic;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An admin's password reset, against the real reader: it ends the user's app passwords along with their sessions, and
 * the user's profile says so until they make a new one.
 */
class PasswordResetEndsAppPasswordsTest {

  private static final String PAGE = "/api/series/moon/chapters/chapter-0001/pages/1";

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeEach
  void start() throws Exception {
    new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 1, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "rita", "rita-reads-a-lot-of-manga");
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void anAdminsPasswordResetEndsTheUsersAppPasswordsAndTheirProfileSaysWhy() throws Exception {
    ReaderUnderTest.Session rita = reader.login("rita", "rita-reads-a-lot-of-manga");
    String tablet = reader.createAppPassword(rita, "Panels on the iPad").getString("password");
    String phone = reader.createAppPassword(rita, "Chunky on the phone").getString("password");
    assertThat(reader.bytes(basic("rita", tablet, reader.get(PAGE))).statusCode()).isEqualTo(200);

    HttpResponse<String> reset = reader.text(as(admin, reader.request("PUT", "/api/admin/users/rita/password",
        new JsonObject().put("password", "a-new-password-for-rita").encode())));
    assertThat(reset.statusCode()).as(reset.body()).isEqualTo(204);

    assertThat(reader.bytes(basic("rita", tablet, reader.get(PAGE))).statusCode())
        .as("an app password made before the reset").isEqualTo(401);
    assertThat(reader.bytes(basic("rita", phone, reader.get(PAGE))).statusCode())
        .as("an app password made before the reset, never used").isEqualTo(401);

    ReaderUnderTest.Session again = reader.login("rita", "a-new-password-for-rita");
    JsonObject profile = new JsonObject(reader.text(as(again, reader.get("/api/me/app-passwords"))).body());
    assertThat(profile.getJsonArray("appPasswords")).isEmpty();
    assertThat(profile.getJsonObject("endedByReset")).as(profile.encode()).isNotNull();
    assertThat(profile.getJsonObject("endedByReset").getInteger("count")).isEqualTo(2);

    String fresh = reader.createAppPassword(again, "Panels again").getString("password");
    assertThat(reader.bytes(basic("rita", fresh, reader.get(PAGE))).statusCode()).isEqualTo(200);
    JsonObject after = new JsonObject(reader.text(as(again, reader.get("/api/me/app-passwords"))).body());
    assertThat(after.getValue("endedByReset")).as("a new app password made since the reset").isNull();
  }
}
