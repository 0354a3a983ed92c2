package io.mangacircus.reader.accounts;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an account's password may be, when an admin creates an account or sets its password. */
class PasswordRulesTest {

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeEach
  void start() throws Exception {
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void aPasswordOfOnlySpacesIsRefused() throws Exception {
    HttpResponse<String> created = reader.text(as(admin, reader.request("POST", "/api/admin/users",
        new JsonObject().put("username", "sam").put("password", "            ").put("role", "reader").encode())));
    reader.createReader(admin, "tess", "tess-has-a-real-password");
    HttpResponse<String> reset = reader.text(as(admin, reader.request("PUT", "/api/admin/users/tess/password",
        new JsonObject().put("password", " \t        ").encode())));

    assertThat(created.statusCode()).as(created.body()).isEqualTo(400);
    assertThat(new JsonObject(created.body()).getString("message")).contains("only spaces");
    assertThat(reset.statusCode()).as(reset.body()).isEqualTo(400);
    assertThat(reader.loginAnswer("tess", "tess-has-a-real-password").statusCode()).isEqualTo(200);
  }
}
