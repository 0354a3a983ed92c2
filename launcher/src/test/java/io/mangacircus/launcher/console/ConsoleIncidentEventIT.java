package io.mangacircus.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An incident the scraper really records (a source that refuses connections) reaches an admin's bridge as an event. */
class ConsoleIncidentEventIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";

  @TempDir
  Path data;

  private LauncherHarness harness;

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  @Test
  void aRecordedIncidentIsPublishedToTheConsole() throws Exception {
    String nobodyListens = "http://127.0.0.1:" + FreePorts.next();
    harness = new LauncherHarness(data, new JsonObject()
        .put("reader", new JsonObject().put("initialAdminPassword", ADMIN_PASSWORD))
        .put("scraper", new JsonObject().put("claimPollMs", 50)
            .put("failures", new JsonObject().put("requestRetries", 0).put("retryBackoffMs", 10))
            .put("sources", new JsonObject().put("gone", new JsonObject().put("type", "demo")
                .put("baseUrl", nobodyListens).put("pageDelayMs", 0).put("chapterDelayMs", 0)))).encode())
        .startStandard(Mode.ALL);
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    WebSocketClient client = harness.vertx().createWebSocketClient();
    WebSocket socket = LauncherHarness.await(client.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(harness.port()).setURI("/eventbus/websocket").addHeader("Cookie", admin.cookie())));
    LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
    socket.handler(buffer -> frames.add(new JsonObject(buffer.toString())));
    LauncherHarness.await(socket.writeTextMessage(new JsonObject().put("type", "register")
        .put("address", Addresses.SCRAPER_INCIDENT_RECORDED).encode()));

    // Added through the bridge, as the console does.
    LauncherHarness.await(socket.writeTextMessage(new JsonObject().put("type", "send")
        .put("address", Addresses.SCRAPER_JOBS_ADD).put("replyAddress", "added")
        .put("body", new JsonObject().put("v", 1).put("source", "gone").put("title", "t1").put("autoConfirm", true))
        .encode()));

    JsonObject incident = await("an incident event within 30 s").atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50)).until(() -> {
          for (JsonObject frame = frames.poll(); frame != null; frame = frames.poll()) {
            if (Addresses.SCRAPER_INCIDENT_RECORDED.equals(frame.getString("address"))) {
              return frame.getJsonObject("body");
            }
          }
          return null;
        }, Objects::nonNull);
    assertThat(incident.getString("source")).isEqualTo("gone");
    assertThat(incident.getString("kind")).isNotBlank();
    assertThat(incident.getString("id")).startsWith("i-");
    assertThat(incident.getValue("resolvedAt")).isNull();
    LauncherHarness.await(client.close());
  }
}
