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

/**
 * A user changes their own password over HTTP against the real reader: only with the current one (a wrong one counted
 * in the login throttle), the new one logs in and the old one not, the user's other sessions end and the one that
 * asked stays.
 */
class OwnPasswordRoutesTest {

  private static final String OLD = "rita-old-password";
  private static final String NEW = "rita-new-password";

  @TempDir
  Path data;

  private ReaderUnderTest reader;

  @BeforeEach
  void start() throws Exception {
    reader = ReaderUnderTest.start(data);
    reader.createReader(reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD), "rita", OLD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  private HttpResponse<String> change(ReaderUnderTest.Session session, String current, String password)
      throws Exception {
    return reader.text(as(session, reader.request("PUT", "/api/me/password",
        new JsonObject().put("current", current).put("password", password).encode())));
  }

  private int me(ReaderUnderTest.Session session) throws Exception {
    return reader.text(as(session, reader.get("/api/me"))).statusCode();
  }

  @Test
  void theNewPasswordLogsInTheOldNotAndOnlyTheSessionThatAskedStays() throws Exception {
    ReaderUnderTest.Session here = reader.login("rita", OLD);
    ReaderUnderTest.Session phone = reader.login("rita", OLD);
    assertThat(me(phone)).isEqualTo(200);

    HttpResponse<String> changed = change(here, OLD, NEW);

    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(204);
    assertThat(me(here)).as("the session that changed it").isEqualTo(200);
    assertThat(me(phone)).as("another session of the user").isEqualTo(401);
    assertThat(reader.loginAnswer("rita", OLD).statusCode()).as("the old password").isEqualTo(401);
    assertThat(reader.loginAnswer("rita", NEW).statusCode()).as("the new password").isEqualTo(200);
  }

  @Test
  void aWrongCurrentPasswordIsRefusedAndThrottledLikeLogins() throws Exception {
    ReaderUnderTest.Session here = reader.login("rita", OLD);

    for (int i = 0; i < AccountRoutes.MAX_FAILURES; i++) {
      HttpResponse<String> wrong = change(here, "not-" + OLD, NEW);
      assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(403);
      assertThat(new JsonObject(wrong.body()).getString("error")).isEqualTo("forbidden");
    }
    HttpResponse<String> locked = change(here, OLD, NEW);

    assertThat(locked.statusCode()).as("the right password after " + AccountRoutes.MAX_FAILURES + " wrong ones: "
        + locked.body()).isEqualTo(429);
    assertThat(locked.headers().firstValue("Retry-After")).isPresent();
    assertThat(reader.loginAnswer("rita", OLD).statusCode()).as("a login of rita from here, locked out too")
        .isEqualTo(429);
    assertThat(me(here)).as("the session stays").isEqualTo(200);
  }

  @Test
  void aNewPasswordBreakingTheRulesIsRefusedAndNothingChanges() throws Exception {
    ReaderUnderTest.Session here = reader.login("rita", OLD);

    HttpResponse<String> tooShort = change(here, OLD, "short");

    assertThat(tooShort.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(tooShort.body()).getString("message")).contains("8 to 1000 characters");
    assertThat(reader.loginAnswer("rita", OLD).statusCode()).isEqualTo(200);
  }
}
