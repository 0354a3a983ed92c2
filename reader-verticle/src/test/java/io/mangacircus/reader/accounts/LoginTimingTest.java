package io.mangacircus.reader.accounts;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A refused login takes as long whether the user name is unknown, disabled or real: the time tells no names. */
class LoginTimingTest {

  @TempDir
  Path data;

  private ReaderUnderTest reader;

  @BeforeEach
  void start() throws Exception {
    reader = ReaderUnderTest.start(data);
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "dora", "dora-reads-every-night");
    HttpResponse<String> disabled = reader.text(as(admin, reader.request("PUT", "/api/admin/users/dora/disabled",
        "{\"disabled\": true}")));
    assertThat(disabled.statusCode()).as(disabled.body()).isEqualTo(200);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void unknownAndDisabledUsersAreRefusedAsSlowlyAsAWrongPassword() throws Exception {
    // Five refusals, interleaved: fewer than any throttle lets through, so every answer is a password check's.
    List<Long> existing = new ArrayList<>();
    List<Long> unknown = new ArrayList<>();
    existing.add(refusalMillis("admin"));
    unknown.add(refusalMillis("nobody"));
    long disabled = refusalMillis("dora");
    unknown.add(refusalMillis("nobody-else"));
    existing.add(refusalMillis("admin"));

    // A real check never takes less than its key derivation; waiting on a busy machine only adds time.
    long derivation = existing.stream().min(Long::compare).orElseThrow();
    assertThat(unknown.stream().max(Long::compare).orElseThrow()).as("unknown user %s ms vs existing %s ms", unknown,
        existing).isGreaterThanOrEqualTo(derivation / 2);
    assertThat(disabled).as("disabled user %s ms vs existing %s ms", disabled, existing)
        .isGreaterThanOrEqualTo(derivation / 2);
  }

  private long refusalMillis(String username) throws Exception {
    long started = System.nanoTime();
    HttpResponse<String> answer = reader.loginAnswer(username, "not-the-password");
    long millis = (System.nanoTime() - started) / 1_000_000;
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
    return millis;
  }

}
