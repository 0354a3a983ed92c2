package io.mangacircus.launcher.notify;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
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
import io.mangacircus.launcher.testing.PairConfigs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Notifications of the real jar: the outbox across a SIGKILL, silence without a destination, the pair's heartbeat. */
@Tag("process") @Tag("cluster") @Tag("realtime")
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
      List<String> outbound = outboundConnections(process.pid());
      assertThat(outbound).as("TCP connections this process opened").isEmpty();
      return true;
    });
    assertThat(wm.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    assertThat(Files.exists(data.resolve("notifications"))).isFalse();
    assertThat(process.output()).doesNotContain("[NOTIFY]");
  }

  /**
   * The process's TCP sockets that are neither listening nor accepted on one of its own listening ports, as
   * {@code local -> remote}: the connections it opened itself.
   */
  static List<String> outboundConnections(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      fds.forEach(fd -> {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      });
    }
    List<String[]> sockets = new ArrayList<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc", String.valueOf(pid), "net", table);
      if (!Files.exists(file)) {
        continue;
      }
      Files.readAllLines(file).stream().skip(1).map(l -> l.trim().split("\\s+"))
          .filter(cols -> inodes.contains(cols[9])).forEach(sockets::add);
    }
    Set<String> listeningPorts = new HashSet<>();
    sockets.stream().filter(c -> "0A".equals(c[3])).forEach(c -> listeningPorts.add(port(c[1])));
    List<String> outbound = new ArrayList<>();
    for (String[] c : sockets) {
      // 0A listening; 07 closed (unconnected); others: connected, accepted on a listening port or opened by us
      if (!"0A".equals(c[3]) && !"07".equals(c[3]) && !listeningPorts.contains(port(c[1]))) {
        outbound.add(c[1] + " -> " + c[2] + " state " + c[3]);
      }
    }
    return outbound;
  }

  private static String port(String hexAddress) {
    return String.valueOf(Integer.parseInt(hexAddress.substring(hexAddress.indexOf(':') + 1), 16));
  }

  @Test
  void inThePairTheReadersHeartbeatStopsWithinOneIntervalWhenTheScraperProcessIsKilled() throws Exception {
    wm.stubFor(any(anyUrl()).willReturn(ok()));
    PairConfigs configs = PairConfigs.write(work);
    JsonObject reader = new JsonObject(Files.readString(configs.reader())).put("notifications", new JsonObject()
        .put("heartbeat", new JsonObject().put("url", "http://127.0.0.1:" + wm.port() + "/ping/uuid-7")
            .put("intervalSeconds", 1)));
    Files.writeString(configs.reader(), reader.encode());
    String data = "--data=" + work.resolve("data");
    JarProcess scraper = start("scraper", "--cluster", "--conf=" + configs.scraper(), data,
        "--health-port=" + FreePorts.next());
    int readerPort = FreePorts.next();
    JarProcess readerProcess = start("reader", "--cluster", "--conf=" + configs.reader(), data,
        "--port=" + readerPort);
    HttpProbe.awaitReady(readerPort);
    await().atMost(Duration.ofSeconds(30)).until(() -> wm.findAll(getRequestedFor(urlPathEqualTo("/ping/uuid-7")))
        .size() >= 3);
    assertThat(outboundConnections(scraper.pid())).as("the scraper process sends no heartbeat of its own")
        .noneMatch(c -> c.contains(Integer.toHexString(wm.port()).toUpperCase()));

    scraper.kill();
    Instant killed = Instant.now();
    await().atMost(Duration.ofSeconds(30)).until(() -> HttpProbe.get(readerPort, "/health/ready").status() == 503);
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).until(() ->
        HttpProbe.get(readerPort, "/health/ready").status() == 503);
    List<Instant> pings = wm.findAll(getRequestedFor(urlPathEqualTo("/ping/uuid-7"))).stream()
        .map(r -> r.getLoggedDate().toInstant()).toList();
    // The last ping may have left before the kill was noticed (the readiness check itself waits for the ping to time
    // out, health.checkTimeoutMs); none comes after one interval plus that check.
    assertThat(pings).as("no heartbeat once the scraper is gone")
        .allMatch(at -> at.isBefore(killed.plusSeconds(1).plusMillis(2_000)));
    assertThat(readerProcess.output()).contains("[NOTIFY] heartbeat paused").doesNotContain("uuid-7");
  }
}
