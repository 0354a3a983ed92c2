package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.junit5.VertxExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The gate in front of account checks while a first start's admin account is still being made, on a real server. */
@ExtendWith(VertxExtension.class)
class AccountsGateTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private final List<String> arrived = new CopyOnWriteArrayList<>();
  private final List<String> served = new CopyOnWriteArrayList<>();
  private final Promise<Void> accountsReady = Promise.promise();
  private int port;

  @BeforeEach
  void serve(Vertx vertx) throws Exception {
    Router router = Router.router(vertx);
    router.route("/api/*").handler(BodyHandler.create());
    router.route("/api/*").handler(ctx -> {
      arrived.add(ctx.normalizedPath());
      ctx.next();
    });
    router.route("/api/*").handler(new AccountsGate(accountsReady.future()));
    router.post("/api/login").handler(ctx -> {
      served.add(ctx.body().asJsonObject().getString("username"));
      ctx.json(new JsonObject().put("user", ctx.body().asJsonObject().getString("username")));
    });
    port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
  }

  private CompletableFuture<HttpResponse<String>> login(String user) {
    return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/login"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("username", user).encode())).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aLoginWhileTheAdminAccountIsBeingMadeWaitsForItAndIsThenAnsweredWithItsBody() throws Exception {
    CompletableFuture<HttpResponse<String>> early = login("admin");
    await().atMost(Duration.ofSeconds(10)).until(() -> arrived.contains("/api/login"));

    assertThat(served).as("held at the gate").isEmpty();
    assertThat(early).isNotDone();

    accountsReady.complete();
    HttpResponse<String> answer = early.get(10, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(answer.body()).getString("user")).isEqualTo("admin");
    assertThat(login("rita").get(10, TimeUnit.SECONDS).statusCode()).as("once ready, straight through").isEqualTo(200);
    assertThat(served).containsExactly("admin", "rita");
  }

  @Test
  void whenTheAccountsCouldNotBeSetUpEveryHeldRequestIsAnswered503WithTheReason() throws Exception {
    CompletableFuture<HttpResponse<String>> early = login("admin");
    await().atMost(Duration.ofSeconds(10)).until(() -> arrived.contains("/api/login"));

    accountsReady.fail(new io.mangacircus.reader.store.StoreException("disk I/O error", null));

    HttpResponse<String> answer = early.get(10, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(503);
    JsonObject error = new JsonObject(answer.body());
    assertThat(error.getString("error")).isEqualTo("accounts_unavailable");
    assertThat(error.getString("message")).contains("disk I/O error");
    assertThat(login("rita").get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(503);
    assertThat(served).isEmpty();
  }
}
