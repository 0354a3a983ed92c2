package io.mangacircus.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two reader processes on the clustered event bus (loopback), each with its own data folder: A's catalog does not
 * parse, so A's reader is blocked and its pages answer 503. The retry start sent through B's admin API reaches A's
 * launcher every time (never B's, whose reader is up), and once A's file is repaired it brings A's reader up.
 */
@Tag("process") @Tag("cluster")
class RetryStartOnSeveralReadersIT {

  private static final Duration START = Duration.ofSeconds(90);
  private static final String TOKEN = "retry-start-on-several-readers-admin-token";
  /** What a launcher logs when a retry start reaches it. */
  private static final String RETRY_ASKED = "[SUPERVISOR] reader: retry start asked by";
  private static final String GOOD_CATALOG = "{\"schema\":1,\"series\":{},\"collections\":[]}";

  @TempDir
  Path work;

  private static Path conf(Path work, String name, String clusterName, int port, JsonArray members)
      throws IOException {
    Path file = work.resolve(name + ".json");
    Files.writeString(file, new JsonObject().put("cluster", new JsonObject().put("name", clusterName)
        .put("port", port).put("members", members)).encode());
    return file;
  }

  private JarProcess reader(String name, String clusterName, int clusterPort, JsonArray members, Path data, int port)
      throws IOException {
    return JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN), "reader", "--cluster",
        "--conf=" + conf(work, name, clusterName, clusterPort, members), "--data=" + data, "--port=" + port);
  }

  private static int count(String text, String needle) {
    return (int) Pattern.compile(Pattern.quote(needle)).matcher(text).results().count();
  }

  /** The launcher B's status page lists with the reader {@code blocked}, if any (and not silent). */
  private static Optional<String> blockedReaderNode(AdminApi api) {
    HttpProbe.Answer status = api.get("/api/admin/status");
    if (status.status() != 200) {
      return Optional.empty();
    }
    return status.json().getJsonArray("supervisors").stream().map(JsonObject.class::cast)
        .filter(l -> !l.getBoolean("silent"))
        .filter(l -> l.getJsonArray("services").stream().map(JsonObject.class::cast)
            .anyMatch(s -> s.getString("service").equals("reader") && s.getString("status").equals("blocked")))
        .map(l -> l.getString("node")).findFirst();
  }

  @Test
  void aRetryStartThroughTheOtherReaderReachesTheBlockedOneEveryTimeAndBringsItUpOnceRepaired() throws Exception {
    String clusterName = "mc-test-" + UUID.randomUUID();
    int clusterA = FreePorts.next();
    int clusterB = FreePorts.next();
    JsonArray members = new JsonArray().add("127.0.0.1:" + clusterA).add("127.0.0.1:" + clusterB);
    Path dataA = Files.createDirectories(work.resolve("reader-a-data"));
    Path dataB = Files.createDirectories(work.resolve("reader-b-data"));
    Path catalog = dataA.resolve("catalog.json");
    byte[] corrupt = GOOD_CATALOG.substring(0, GOOD_CATALOG.length() / 2).getBytes(StandardCharsets.UTF_8);
    Files.write(catalog, corrupt);
    int portA = FreePorts.next();
    int portB = FreePorts.next();

    try (JarProcess readerA = reader("reader-a", clusterName, clusterA, members, dataA, portA);
        JarProcess readerB = reader("reader-b", clusterName, clusterB, members, dataB, portB)) {
      String outputs = "%n---- A%n%s%n---- B%n%s";
      // No scraper runs, so readiness stays 503: its reader check says whether a reader is up.
      await().atMost(START).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
          assertThat(HttpProbe.get(portB, "/health/ready").check("reader")).as("B's reader" + outputs,
              readerA.output(), readerB.output()).isEqualTo("UP"));
      AdminApi throughB = new AdminApi(portB, TOKEN);
      // B hears A's launcher once the cluster has formed; A's status is published every 5 s.
      String nodeA = await().atMost(START).pollInterval(Duration.ofMillis(500))
          .until(() -> blockedReaderNode(throughB), Optional::isPresent).orElseThrow();
      assertThat(nodeA).as("the blocked reader is A's").endsWith(":" + readerA.pid());
      assertThat(HttpProbe.get(portA, "/").status()).as("A's pages while its reader is blocked").isEqualTo(503);
      int blockedBefore = count(readerA.output(), "[SUPERVISOR] reader is blocked");

      // Shared by both launchers, the old address would hand one of two requests to B's, which refuses (409).
      for (int attempt = 1; attempt <= 2; attempt++) {
        HttpProbe.Answer again = throughB.post("/api/admin/services/reader/start", new JsonObject());
        assertThat(again.status()).as("retry %d through B: %s", attempt, again.body()).isEqualTo(200);
        assertThat(again.json().getString("status")).isEqualTo("blocked");
        assertThat(again.json().getString("reason")).startsWith("corrupt state file " + catalog);
      }
      assertThat(count(readerA.output(), "[SUPERVISOR] reader is blocked")).as("A's reader tried twice more")
          .isEqualTo(blockedBefore + 2);
      assertThat(count(readerA.output(), RETRY_ASKED)).isEqualTo(2);
      assertThat(count(readerB.output(), RETRY_ASKED)).as("B's launcher was never asked").isZero();
      assertThat(Files.readAllBytes(catalog)).as("the corrupt file is never touched").isEqualTo(corrupt);

      Files.writeString(catalog, GOOD_CATALOG);
      HttpProbe.Answer started = throughB.post("/api/admin/services/reader/start", new JsonObject());

      assertThat(started.status()).as(started.body()).isEqualTo(200);
      assertThat(started.json().getString("status")).isEqualTo("up");
      assertThat(HttpProbe.get(portA, "/health/ready").check("reader")).isEqualTo("UP");
      assertThat(HttpProbe.get(portA, "/").status()).as("A's pages once its reader is up").isEqualTo(200);
      HttpProbe.Answer named = throughB.post("/api/admin/services/reader/start?node="
          + URLEncoder.encode(nodeA, StandardCharsets.UTF_8), new JsonObject());
      assertThat(named.status()).as("A's reader is up now: %s", named.body()).isEqualTo(409);
      assertThat(named.json().getString("error")).isEqualTo("not_blocked");
    }
  }
}
