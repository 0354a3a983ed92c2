package io.mangacircus.launcher.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.Main;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar started on a state file that does not parse (as {@code truncate -s} leaves one): the service that owns it
 * is blocked once, says so everywhere an operator looks, never touches the file and spends no crash budget; once the
 * file parses again a retry start (or a restart of the process) brings it up.
 */
@Tag("process")
class CorruptStateFileIT {

  private static final Duration START = Duration.ofSeconds(40);
  private static final String TOKEN = "corrupt-file-admin-token";
  private static final String METRICS = "corrupt-file-metrics-token";
  private static final String GOOD_QUEUE = "{\"schema\":2,\"jobs\":[],\"lanes\":{},\"incidents\":[]}";
  private static final String GOOD_CATALOG = "{\"schema\":1,\"series\":{},\"collections\":[]}";

  @TempDir
  Path work;

  private Path data() {
    return work.resolve("data");
  }

  /** What {@code truncate -s 5000} does to a short file: its text, then zero bytes. */
  private static byte[] truncatedTo(String text, int size) {
    byte[] bytes = new byte[size];
    byte[] head = text.substring(0, text.length() / 2).getBytes(StandardCharsets.UTF_8);
    System.arraycopy(head, 0, bytes, 0, head.length);
    return bytes;
  }

  private JarProcess start(int port) {
    return JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN, "MANGACIRCUS_METRICS_TOKEN", METRICS),
        "all", "--data=" + data(), "--port=" + port, "--health-port=" + FreePorts.next());
  }

  private JarProcess check(int port) {
    return JarProcess.start(work, Map.of(), "check", "--data=" + data(), "--port=" + port);
  }

  private static int count(String text, String needle) {
    return (int) Pattern.compile(Pattern.quote(needle)).matcher(text).results().count();
  }

  @Test
  void aTruncatedQueueBlocksTheScraperOnceAndARetryStartAfterTheRepairBringsItUp() throws Exception {
    Path queue = data().resolve("scraper/queue.json");
    Files.createDirectories(queue.getParent());
    Files.write(queue, truncatedTo(GOOD_QUEUE, 5000));
    byte[] before = Files.readAllBytes(queue);
    int port = FreePorts.next();

    try (JarProcess process = start(port)) {
      await().atMost(START).until(() -> {
        HttpProbe.Answer ready = HttpProbe.get(port, "/health/ready");
        return ready.status() == 503 && "UP".equals(ready.check("reader"))
            && ready.checkData("supervisor").containsKey("blocked");
      });
      HttpProbe.Answer ready = HttpProbe.get(port, "/health/ready");
      JsonObject supervisor = ready.checkData("supervisor");
      String reason = supervisor.getJsonObject("blocked").getString("scraper");
      assertThat(reason).startsWith("corrupt state file " + queue + ": is not valid JSON");
      assertThat(supervisor.getString("reason")).startsWith("blocked: corrupt state file " + queue);
      JsonObject scraper = supervisor.getJsonObject("services").getJsonObject("scraper");
      assertThat(scraper.getString("status")).isEqualTo("blocked");
      assertThat(scraper.getInteger("failuresInWindow")).isZero();
      assertThat(supervisor.containsKey("parked")).isFalse();

      // One deploy attempt, whatever the backoff would have allowed by now; no stack trace for the operator.
      await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6))
          .until(() -> count(process.output(), "the scraper refuses to start") == 1);
      assertThat(count(process.output(), "[SUPERVISOR] scraper is blocked")).isEqualTo(1);
      assertThat(process.output()).doesNotContain("will be redeployed", "CorruptStateFileException",
          "\tat io.mangacircus");

      assertThat(HttpProbe.get(port, "/metrics", METRICS).body())
          .contains("mc_supervisor_blocked{service=\"scraper\"} 1.0")
          .contains("mc_supervisor_blocked{service=\"reader\"} 0.0")
          .contains("mc_supervisor_parked{service=\"scraper\"} 0.0")
          .contains("mc_supervisor_restarts_total{service=\"scraper\"} 0.0");

      JsonObject launcherState = new AdminApi(port, TOKEN).get("/api/admin/status").json()
          .getJsonArray("supervisors").getJsonObject(0).getJsonArray("services").stream()
          .map(JsonObject.class::cast).filter(s -> s.getString("service").equals("scraper")).findFirst().orElseThrow();
      assertThat(launcherState.getString("status")).isEqualTo("blocked");
      assertThat(launcherState.getString("reason")).doesNotContain("Exception");

      try (JarProcess check = check(port)) {
        assertThat(check.waitForExit(START)).as(check.output()).isEqualTo(Main.EXIT_FAILURE);
        assertThat(check.output()).contains("PROBLEM scraper: blocked: corrupt state file " + queue,
            "no crash budget was spent", "check: problems found");
      }

      // A retry start while the file is still corrupt: one more attempt, blocked again, still no budget.
      HttpProbe.Answer again = new AdminApi(port, TOKEN).post("/api/admin/services/scraper/start", new JsonObject());
      assertThat(again.status()).as(again.body()).isEqualTo(200);
      assertThat(again.json().getString("status")).isEqualTo("blocked");
      assertThat(count(process.output(), "the scraper refuses to start")).isEqualTo(2);
      assertThat(Files.readAllBytes(queue)).as("the corrupt file is never touched").isEqualTo(before);

      Files.writeString(queue, GOOD_QUEUE);
      HttpProbe.Answer started = new AdminApi(port, TOKEN).post("/api/admin/services/scraper/start", new JsonObject());

      assertThat(started.status()).as(started.body()).isEqualTo(200);
      assertThat(started.json().getString("status")).isEqualTo("up");
      await().atMost(START).until(() -> HttpProbe.get(port, "/health/ready").status() == 200);
      HttpProbe.Answer refused = new AdminApi(port, TOKEN).post("/api/admin/services/scraper/start", new JsonObject());
      assertThat(refused.status()).as("only a blocked service can be started this way").isEqualTo(409);
      assertThat(refused.json().getString("message")).contains("scraper is up, not blocked");
      process.terminate();
      assertThat(process.waitForExit(Duration.ofSeconds(30))).isZero();
    }
    JsonObject runtime = new JsonObject(Files.readString(data().resolve("scraper/runtime.json")));
    assertThat(runtime.getJsonObject("services").getJsonObject("scraper").getJsonArray("failures")).isEmpty();
    assertThat(runtime.getJsonObject("services").getJsonObject("scraper").getLong("restarts")).isZero();
  }

  @Test
  void aQueueJournalWithABadLineInTheMiddleBlocksTheScraperCheckNamesItAndNeitherFileIsTouched() throws Exception {
    Path queue = data().resolve("scraper/queue.json");
    Path journal = io.mangacircus.scraper.queue.QueueStore.journalOf(queue);
    io.mangacircus.scraper.queue.QueueStore store = new io.mangacircus.scraper.queue.QueueStore(queue);
    store.save(io.mangacircus.scraper.queue.QueueFile.empty());
    java.time.Instant now = java.time.Instant.parse("2026-12-01T00:00:00Z");
    java.util.List<io.mangacircus.scraper.queue.Job> jobs = new java.util.ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      jobs.add(new io.mangacircus.scraper.queue.Job("j-" + i, "nowhere", "t-" + i, "T " + i,
          io.mangacircus.scraper.queue.JobState.PAUSED, false, false, 0, 0, now, now, null, null, null, "test",
          java.util.List.of(), 0, 0));
      store.save(new io.mangacircus.scraper.queue.QueueFile(io.mangacircus.scraper.queue.QueueStore.SCHEMA, jobs,
          Map.of(), java.util.List.of()));
    }
    java.util.List<String> lines = new java.util.ArrayList<>(Files.readAllLines(journal));
    assertThat(lines).hasSizeGreaterThanOrEqualTo(3);
    lines.set(1, lines.get(1).substring(0, lines.get(1).length() / 2));
    Files.write(journal, lines);
    byte[] journalBefore = Files.readAllBytes(journal);
    byte[] queueBefore = Files.readAllBytes(queue);
    int port = FreePorts.next();

    try (JarProcess process = start(port)) {
      await().atMost(START).until(() -> {
        HttpProbe.Answer ready = HttpProbe.get(port, "/health/ready");
        return ready.status() == 503 && "UP".equals(ready.check("reader"))
            && ready.checkData("supervisor").containsKey("blocked");
      });
      String reason = HttpProbe.get(port, "/health/ready").checkData("supervisor").getJsonObject("blocked")
          .getString("scraper");
      assertThat(reason).startsWith("corrupt state file " + journal + ": line 2");
      try (JarProcess check = check(port)) {
        assertThat(check.waitForExit(START)).as(check.output()).isEqualTo(Main.EXIT_FAILURE);
        assertThat(check.output()).contains("PROBLEM " + journal + ": line 2");
      }
      assertThat(Files.readAllBytes(journal)).as("the journal is never touched").isEqualTo(journalBefore);
      assertThat(Files.readAllBytes(queue)).as("nor is the snapshot").isEqualTo(queueBefore);
      process.terminate();
      assertThat(process.waitForExit(Duration.ofSeconds(30))).isZero();
    }
    assertThat(Files.readAllBytes(journal)).isEqualTo(journalBefore);
    assertThat(Files.readAllBytes(queue)).isEqualTo(queueBefore);
  }

  @Test
  void aCorruptCatalogBlocksTheReaderAndARestartAfterTheRepairBringsItUpWithItsBudgetUntouched() throws Exception {
    Path catalog = data().resolve("catalog.json");
    Files.createDirectories(data());
    Files.write(catalog, truncatedTo(GOOD_CATALOG, 300));
    byte[] before = Files.readAllBytes(catalog);
    int port = FreePorts.next();

    try (JarProcess process = start(port)) {
      await().atMost(START).until(() -> {
        HttpProbe.Answer ready = HttpProbe.get(port, "/health/ready");
        return ready.status() == 503 && ready.checkData("supervisor").containsKey("blocked");
      });
      JsonObject supervisor = HttpProbe.get(port, "/health/ready").checkData("supervisor");
      assertThat(supervisor.getJsonObject("blocked").getString("reader"))
          .startsWith("corrupt state file " + catalog + ": is not a valid catalog");
      HttpProbe.Answer page = HttpProbe.get(port, "/");
      assertThat(page.status()).isEqualTo(503);
      assertThat(page.json().getString("message")).contains("the reader service is blocked (corrupt state file");
      await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
          .until(() -> count(process.output(), "[SUPERVISOR] reader is blocked") == 1);
      assertThat(process.output()).doesNotContain("will be redeployed");
      process.terminate();
      assertThat(process.waitForExit(Duration.ofSeconds(30))).isZero();
    }
    assertThat(Files.readAllBytes(catalog)).isEqualTo(before);
    try (JarProcess check = check(FreePorts.next())) {
      assertThat(check.waitForExit(START)).as(check.output()).isEqualTo(Main.EXIT_FAILURE);
      assertThat(check.output()).contains("PROBLEM reader: blocked: corrupt state file " + catalog);
    }

    Files.writeString(catalog, GOOD_CATALOG);
    int port2 = FreePorts.next();
    try (JarProcess process = start(port2)) {
      await().atMost(START).until(() -> HttpProbe.get(port2, "/health/ready").status() == 200);
      assertThat(HttpProbe.get(port2, "/").status()).isEqualTo(200);
      process.terminate();
      assertThat(process.waitForExit(Duration.ofSeconds(30))).isZero();
    }
    JsonObject reader = new JsonObject(Files.readString(data().resolve("runtime-reader.json")))
        .getJsonObject("services").getJsonObject("reader");
    assertThat(reader.getJsonArray("failures")).isEmpty();
    assertThat(reader.getString("status")).isEqualTo("stopped");
    assertThat(reader.getString("reason")).isNull();
  }
}
