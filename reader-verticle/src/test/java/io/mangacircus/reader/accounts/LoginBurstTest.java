package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logins sent at once at a real reader: counted before their passwords are checked, checked on a bounded pool, and,
 * behind a trusted proxy, throttled per client so that one client's failures lock nobody else out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LoginBurstTest {

  private ReaderUnderTest reader;
  private ReaderUnderTest behindProxy;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  void start(@TempDir Path data) throws Exception {
    reader = ReaderUnderTest.start(data.resolve("direct"));
    behindProxy = ReaderUnderTest.start(data.resolve("proxied"), List.of("127.0.0.1"));
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
    behindProxy.close();
  }

  @Test
  void loginsSentAtOnceAreCountedBeforeTheirPasswordsAreChecked() throws Exception {
    List<HttpResponse<String>> answers = all(behindProxy, 30,
        i -> login(behindProxy, "admin", "wrong-" + i, "192.0.2.30"));

    assertThat(answers).filteredOn(a -> a.statusCode() == 401).as("checked").hasSizeLessThanOrEqualTo(
        AccountRoutes.MAX_FAILURES);
    assertThat(answers).filteredOn(a -> a.statusCode() == 429).as("refused before any check").hasSizeGreaterThanOrEqualTo(
        30 - AccountRoutes.MAX_FAILURES);
  }

  @Test
  void aBurstBeyondThePasswordPoolIsAnsweredAtOnceWith503() throws Exception {
    int burst = Math.max(60, 3 * (PasswordWork.THREADS + PasswordWork.WAITING));
    List<HttpResponse<String>> answers = all(behindProxy, burst,
        i -> login(behindProxy, "nobody-" + i, "wrong-password", "198.51." + (i / 250) + "." + (i % 250 + 1)));

    List<HttpResponse<String>> busy = answers.stream().filter(a -> a.statusCode() == 503).toList();
    assertThat(busy).as("answers: %s", answers.stream().map(HttpResponse::statusCode).toList()).isNotEmpty();
    assertThat(busy.get(0).headers().firstValue("Retry-After")).hasValue("1");
    assertThat(new JsonObject(busy.get(0).body()).getString("error")).isEqualTo("busy");
    assertThat(answers).allMatch(a -> a.statusCode() == 401 || a.statusCode() == 503);
    assertThat(http.send(login(behindProxy, "admin", ReaderUnderTest.ADMIN_PASSWORD, "192.0.2.200").build(),
        HttpResponse.BodyHandlers.ofString()).statusCode()).as("a login after the burst").isEqualTo(200);
  }

  @Test
  void failuresFromOneClientBehindTheProxyDoNotLockTheUserOutForOthers() throws Exception {
    for (int i = 0; i < AccountRoutes.MAX_FAILURES; i++) {
      assertThat(send(login(behindProxy, "admin", "guess-" + i, "203.0.113.5")).statusCode()).isEqualTo(401);
    }

    assertThat(send(login(behindProxy, "admin", ReaderUnderTest.ADMIN_PASSWORD, "203.0.113.5")).statusCode())
        .as("the guessing client").isEqualTo(429);
    assertThat(send(login(behindProxy, "admin", ReaderUnderTest.ADMIN_PASSWORD, "198.51.100.7")).statusCode())
        .as("the admin from another address").isEqualTo(200);
  }

  @Test
  void aClientThatIsNoTrustedProxyCannotChooseTheAddressItIsThrottledBy() throws Exception {
    for (int i = 0; i < AccountRoutes.MAX_FAILURES; i++) {
      send(login(reader, "bob", "guess-" + i, "203.0.113." + (i + 1)));
    }

    assertThat(send(login(reader, "bob", "guess", "203.0.113.99")).statusCode()).isEqualTo(429);
  }

  private HttpRequest.Builder login(ReaderUnderTest target, String username, String password, String forwardedFor) {
    HttpRequest.Builder request = target.request("POST", "/api/login", new JsonObject().put("username", username)
        .put("password", password).encode());
    return forwardedFor == null ? request : request.header("X-Forwarded-For", forwardedFor);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Sends {@code count} requests at once and waits for every answer. */
  private List<HttpResponse<String>> all(ReaderUnderTest target, int count, IntFunction<HttpRequest.Builder> request)
      throws Exception {
    List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sent.add(http.sendAsync(request.apply(i).build(), HttpResponse.BodyHandlers.ofString()));
    }
    CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    return sent.stream().map(CompletableFuture::join).toList();
  }
}
