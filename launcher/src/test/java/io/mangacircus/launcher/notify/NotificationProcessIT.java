package io.mangacircus.launcher.notify;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.OutboundConnections;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notifications of the real jar: the outbox across a SIGKILL, silence without a destination (the pair's heartbeat is in
 * {@code DaemonPairIT}).
 */
@Tag("process") @Tag("realtime")
class NotificationProcessIT {

  @TempDir
  Path work;

  private final WireMockServer wm = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final List<JarProcess> processes = new ArrayList<>();

  @BeforeEach
  void startWireMock() {
    wm.start();
  }

  @AfterEach
  void stop() {
    processes.forEach(JarProcess::close);
    wm.stop();
  }

  private JarProcess start(String... args) {
    JarProcess process = JarProcess.start(work, Map.of(), args);
    processes.add(process);
    return process;
  }

  private Path conf(String name, JsonObject config) throws IOException {
    Path file = work.resolve(name);
    Files.writeString(file, config.encode());
    return file;
  }

  private List<LoggedRequest> hooks() {
    return wm.findAll(postRequestedFor(urlPathEqualTo("/hook/secret-key")));
  }

  @Test
  void aQueuedMessageSurvivesSigkillAndIsDeliveredOnceAfterTheRestart() throws Exception {
    wm.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503)));
    Path data = work.resolve("data");
    Files.createDirectories(data.resolve("scraper"));
    Path queue = data.resolve("scraper/queue.json");
    Files.writeString(queue, "{ not json");
    Path conf = conf("notify.json", new JsonObject().put("notifications", new JsonObject()
        .put("retry", new JsonObject().put("initialSeconds", 1).put("multiplier", 1.0).put("maxSeconds", 1)
            .put("maxAttempts", 1000))
        .put("destinations", new JsonArray().add(new JsonObject().put("name", "hook").put("type", "webhook")
            .put("url", "http://127.0.0.1:" + wm.port() + "/hook/secret-key")))));
    String[] args = {"all", "--conf=" + conf, "--data=" + data, "--port=" + FreePorts.next(),
        "--health-port=" + FreePorts.next()};
    JarProcess first = start(args);
    Path outbox = data.resolve("notifications/outbox.json");
    await().atMost(Duration.ofSeconds(60)).until(() -> hooks().size() >= 2 && Files.exists(outbox));
    JsonArray waiting = new JsonObject(Files.readString(outbox)).getJsonArray("deliveries");
    assertThat(waiting).hasSize(1);
    assertThat(waiting.getJsonObject(0).getJsonObject("notification").getString("kind")).isEqualTo("corrupt-state");
    first.kill();
    assertThat(first.output()).doesNotContain("secret-key");

    // Repaired while it was down: no new event on the next start, only the message that waited.
    Files.delete(queue);
    wm.resetAll();
    wm.stubFor(any(anyUrl()).willReturn(ok()));
    JarProcess second = start(args);
    await().atMost(Duration.ofSeconds(60)).until(() -> hooks().size() >= 1);
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).until(() -> hooks().size() == 1);
    JsonObject body = new JsonObject(hooks().get(0).getBodyAsString());
    assertThat(body.getString("kind")).isEqualTo("corrupt-state");
    assertThat(body.getString("message")).contains("queue.json");
    await().atMost(Duration.ofSeconds(10)).until(() -> new JsonObject(Files.readString(outbox))
        .getJsonArray("deliveries").isEmpty());
    assertThat(second.output()).contains("[NOTIFY] sent corrupt-state message to hook").doesNotContain("secret-key");
  }

  @Test
  void withoutADestinationTheProcessOpensNoOutboundConnectionAtAll() throws Exception {
    wm.stubFor(any(anyUrl()).willReturn(ok()));
    Path data = work.resolve("data");
    Files.createDirectories(data.resolve("scraper"));
    // Something worth telling happens (the scraper is blocked), but nothing is configured to tell it to.
    Files.writeString(data.resolve("scraper/queue.json"), "{ not json");
    Path conf = conf("quiet.json", new JsonObject().put("notifications", new JsonObject()
        .put("publicUrl", "http://127.0.0.1:" + wm.port())));
    int port = FreePorts.next();
    JarProcess process = start("all", "--conf=" + conf, "--data=" + data, "--port=" + port,
        "--health-port=" + FreePorts.next());
    await().atMost(Duration.ofSeconds(60)).until(() -> HttpProbe.get(port, "/health/ready").body()
        .contains("blocked"));
    await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).until(() -> {
      List<String> outbound = OutboundConnections.of(process.pid());
      assertThat(outbound).as("TCP connections this process opened").isEmpty();
      return true;
    });
    assertThat(wm.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    assertThat(Files.exists(data.resolve("notifications"))).isFalse();
    assertThat(process.output()).doesNotContain("[NOTIFY]");
  }

}
