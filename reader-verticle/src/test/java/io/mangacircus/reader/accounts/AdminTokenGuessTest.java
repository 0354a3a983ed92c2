package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Guesses at the admin bearer token are throttled per client address like password guesses. */
class AdminTokenGuessTest {

  @TempDir
  Path data;

  private ReaderUnderTest reader;

  @BeforeEach
  void start() throws Exception {
    reader = ReaderUnderTest.start(data);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void wrongAdminTokensAreThrottledLikeWrongPasswords() throws Exception {
    for (int i = 0; i < AccountRoutes.MAX_FAILURES; i++) {
      HttpResponse<String> wrong = withToken(ReaderUnderTest.ADMIN_TOKEN.substring(0, 20) + "guess" + i);
      assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(401);
    }

    HttpResponse<String> right = withToken(ReaderUnderTest.ADMIN_TOKEN);

    assertThat(right.statusCode()).as("the right token after five wrong ones from the same address")
        .isEqualTo(429);
    assertThat(right.headers().firstValue("Retry-After")).isPresent();
  }

  @Test
  void theRightTokenIsAcceptedAndAnyOtherRefused() throws Exception {
    assertThat(withToken(ReaderUnderTest.ADMIN_TOKEN).statusCode()).isEqualTo(200);
    assertThat(withToken(ReaderUnderTest.ADMIN_TOKEN + "x").statusCode()).isEqualTo(401);
    assertThat(withToken(ReaderUnderTest.ADMIN_TOKEN.substring(1)).statusCode()).isEqualTo(401);
    assertThat(withToken("").statusCode()).isEqualTo(401);
  }

  private HttpResponse<String> withToken(String token) throws Exception {
    return reader.text(reader.get("/api/admin/users").header("Authorization", "Bearer " + token));
  }
}
