package io.mangacircus.launcher.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** {@code GET /metrics} on a real HTTP server: wrong tokens are throttled and logged without the token. */
class MetricsEndpointTest {

  private static final String TOKEN = "metrics-endpoint-test-token-0001";

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Logger logger = (Logger) LoggerFactory.getLogger(MetricsEndpoint.class);
  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
  private Vertx vertx;
  private int port;

  @BeforeEach
  void start() throws Exception {
    captured.start();
    logger.addAppender(captured);
    vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.get("/metrics").handler(new MetricsEndpoint(TOKEN, ctx -> ctx.end("mc_up 1\n"), InstantSource.system()));
    port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
  }

  @AfterEach
  void stop() throws Exception {
    logger.detachAppender(captured);
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void wrongTokensAreThrottledAndLoggedWithoutTheToken() throws Exception {
    assertThat(scrape(TOKEN).statusCode()).isEqualTo(200);
    for (int i = 0; i < 5; i++) {
      assertThat(scrape("a-wrong-guess-at-the-metrics-token-" + i).statusCode()).isEqualTo(401);
    }

    HttpResponse<String> right = scrape(TOKEN);

    assertThat(right.statusCode()).as("the right token after five wrong ones from the same address").isEqualTo(429);
    assertThat(right.headers().firstValue("Retry-After")).isPresent();
    assertThat(captured.list).hasSize(5).allSatisfy(event -> assertThat(event.getFormattedMessage())
        .contains("wrong or missing metrics token from 127.0.0.1").doesNotContain("a-wrong-guess"));
  }

  private HttpResponse<String> scrape(String token) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
  }
}
