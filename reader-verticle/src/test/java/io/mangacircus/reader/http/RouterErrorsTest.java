package io.mangacircus.reader.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Whatever fails on the reader's router, API or not, in a sub-router or not, answers {@code {error, message}}. */
class RouterErrorsTest {

  private Vertx vertx;
  private HttpServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    ApiReplies.answerFailuresAsJson(router);
    router.get("/api/boom").handler(ctx -> {
      throw new IllegalStateException("a bug in an API route");
    });
    router.get("/admin/boom").handler(ctx -> {
      throw new IllegalStateException("a bug behind a page");
    });
    router.get("/admin/refused").handler(ctx -> ctx.fail(403));
    Router feature = Router.router(vertx);
    feature.get("/boom").handler(ctx -> ctx.fail(new IllegalStateException("a failed future in a sub-router")));
    router.route("/feature/*").subRouter(feature);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aRouteThatThrowsAnswers500InTheJsonErrorShape() throws Exception {
    for (String path : new String[] {"/api/boom", "/admin/boom", "/feature/boom"}) {
      HttpResponse<String> response = get(path);

      assertThat(response.statusCode()).as(path).isEqualTo(500);
      assertThat(response.headers().firstValue("Content-Type")).as(path).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/json"));
      JsonObject body = new JsonObject(response.body());
      assertThat(body.fieldNames()).as(path).containsExactlyInAnyOrder("error", "message");
      assertThat(body.getString("error")).isEqualTo("internal_error");
      assertThat(body.getString("message")).isNotBlank().doesNotContain("a bug");
    }
  }

  @Test
  void aRouteThatFailsWithAStatusKeepsItInTheJsonErrorShape() throws Exception {
    HttpResponse<String> response = get("/admin/refused");

    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(new JsonObject(response.body()).getString("error")).isEqualTo("http_403");
  }
}
