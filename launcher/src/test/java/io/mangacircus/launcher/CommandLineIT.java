package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runnable jar as an operator uses it: exit codes, messages, locks and graceful stop. */
@Tag("process")
class CommandLineIT {

  private static final Duration START = Duration.ofSeconds(30);

  @TempDir
  Path work;

  /**
   * The folder of the product that the tests which only look at a running one share. It starts on the data folder of
   * a product killed (SIGKILL) while ready, which is what the lock test asserts of it.
   */
  @TempDir
  static Path shared;

  private static JarProcess running;
  private static int runningPort;
  private static boolean killedLeftItsLock;

  @BeforeAll
  static void startTheSharedProductWhereAKilledOneRan() {
    int port = FreePorts.next();
    try (JarProcess killed = startAll(shared, Map.of(), port)) {
      HttpProbe.awaitReady(port);
      killed.kill();
    }
    killedLeftItsLock = Files.exists(shared.resolve("data/scraper/daemon.lock"));
    runningPort = FreePorts.next();
    running = startAll(shared, Map.of(), runningPort);
    HttpProbe.awaitReady(runningPort);
  }

  @AfterAll
  static void stopTheSharedProduct() {
    if (running != null) {
      running.close();
    }
  }

  private JarProcess startAll(int port) {
    return startAll(work, Map.of(), port);
  }

  private static JarProcess startAll(Path folder, Map<String, String> env, int port) {
    return JarProcess.start(folder, env, "all", "--data=" + folder.resolve("data"), "--port=" + port,
        "--health-port=" + FreePorts.next());
  }

  @Test
  void invalidConfigStopsStartUpNamingTheKey() throws Exception {
    Files.writeString(work.resolve("bad.json"), "{\"supervision\": {\"crashBudgetFailures\": \"three\"}}");

    try (JarProcess process = JarProcess.start(work, Map.of(), "--conf", "bad.json", "--data", "data")) {
      assertThat(process.waitForExit(START)).isEqualTo(Main.EXIT_CONFIG);
      assertThat(process.output()).contains("supervision.crashBudgetFailures");
    }
    try (JarProcess process = JarProcess.start(work, Map.of("MANGACIRCUS_PORT", "http"), "--data", "data")) {
      assertThat(process.waitForExit(START)).isEqualTo(Main.EXIT_CONFIG);
      assertThat(process.output()).contains("http.port", "MANGACIRCUS_PORT");
    }
    assertThat(work.resolve("data")).doesNotExist();
  }

  @Test
  void aPortInUseStopsStartUpNamingThePortAndWhatToDo() throws Exception {
    try (java.net.ServerSocket busy = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        JarProcess process = startAll(busy.getLocalPort())) {
      assertThat(process.waitForExit(START)).as(process.output()).isEqualTo(Main.EXIT_FAILURE);
      assertThat(process.output()).contains("port " + busy.getLocalPort() + " on 127.0.0.1 is already in use "
          + "(another MangaCircus or another program?); choose another with --port or stop the other process")
          .doesNotContain("java.net.BindException");
    }
  }

  @Test
  void aConfigFileOfBinaryGarbageIsNamedAndRefusedWithExitTwo() throws Exception {
    byte[] garbage = new byte[200];
    new java.util.Random(7).nextBytes(garbage);
    garbage[0] = (byte) 0xFF;
    Files.write(work.resolve("garbage.json"), garbage);

    try (JarProcess process = JarProcess.start(work, Map.of(), "--conf", "garbage.json", "--data", "data")) {
      assertThat(process.waitForExit(START)).isEqualTo(Main.EXIT_CONFIG);
      assertThat(process.output()).contains("invalid configuration: garbage.json: the config file is not valid UTF-8 "
          + "text (byte 0xFF at offset 0)").doesNotContain("Input length");
    }
    try (JarProcess check = JarProcess.start(work, Map.of(), "check", "--conf", "garbage.json", "--data", "data")) {
      assertThat(check.waitForExit(START)).isEqualTo(Main.EXIT_FAILURE);
      assertThat(check.output()).contains("PROBLEM config: invalid configuration: garbage.json: the config file is not "
          + "valid UTF-8 text");
    }
  }

  @Test
  void sigtermStopsGracefullyWithExitZeroRecordsTheStopAndLogsJsonLinesWithoutSecrets() throws Exception {
    int port = FreePorts.next();
    Map<String, String> env = Map.of("MANGACIRCUS_LOG_FORMAT", "json", "MANGACIRCUS_ADMIN_TOKEN", "adm1n-t0ken-value-012345",
        "MANGACIRCUS_METRICS_TOKEN", "metr1cs-t0ken-value-0123");
    try (JarProcess process = startAll(work, env, port)) {
      HttpProbe.awaitReady(port);
      long before = System.nanoTime();
      process.terminate();

      assertThat(process.waitForExit(Duration.ofSeconds(30))).isEqualTo(0);
      assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(30));
      assertThat(process.output()).contains("stopped cleanly");

      List<String> lines = process.output().lines().filter(line -> !line.isBlank()).toList();
      assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(new JsonObject(line).getString("level")).isNotNull());
      assertThat(lines).anySatisfy(line -> assertThat(new JsonObject(line).getString("message")).contains("stopped cleanly"));
      assertThat(process.output()).doesNotContain("adm1n-t0ken-value-012345", "metr1cs-t0ken-value-0123");
    }
    assertThat(Files.readString(work.resolve("data/scraper/runtime.json"))).contains("\"status\" : \"stopped\"");
    assertThat(Files.readString(work.resolve("data/runtime-reader.json"))).contains("\"status\" : \"stopped\"");
  }

  @Test
  void aSecondScraperOnTheSameDataFolderRefusesToStartAndAKilledOneDoesNotBlock() {
    // The killed product left its lock files behind; the kernel released the locks, so the shared product started.
    assertThat(killedLeftItsLock).isTrue();
    assertThat(HttpProbe.get(runningPort, "/health/ready").status()).isEqualTo(200);

    try (JarProcess second = JarProcess.start(work, Map.of(), "scraper", "--data=" + shared.resolve("data"),
        "--health-port=" + FreePorts.next())) {
      assertThat(second.waitForExit(START)).isEqualTo(Main.EXIT_LOCKED);
      assertThat(second.output()).contains("daemon.lock", "locked by another running process",
          "pid " + running.pid());
    }
  }

  @Test
  void checkPassesOnAHealthyRunningSystemAndReportsAParkedBudget() throws Exception {
    try (JarProcess check = JarProcess.start(work, Map.of(), "check", "--data=" + shared.resolve("data"),
        "--port=" + runningPort)) {
      assertThat(check.waitForExit(START)).as(check.output()).isEqualTo(0);
      assertThat(check.output()).contains("scraper: running and ready", "reader: running and ready",
          "check: all passed");
    }

    // A stopped scraper that spent its crash budget.
    Path runtime = work.resolve("data/scraper/runtime.json");
    Files.createDirectories(runtime.getParent());
    String now = java.time.Instant.now().toString();
    Files.writeString(runtime, "{\"schema\":1,\"services\":{\"scraper\":{\"status\":\"repair-required\","
        + "\"failures\":[\"" + now + "\",\"" + now + "\",\"" + now + "\"],\"parkedAt\":\"" + now + "\","
        + "\"restarts\":2,\"reason\":\"crash budget spent\"}}}");
    byte[] before = Files.readAllBytes(runtime);
    try (JarProcess check = JarProcess.start(work, Map.of(), "check", "--data=" + work.resolve("data"))) {
      assertThat(check.waitForExit(START)).as(check.output()).isEqualTo(Main.EXIT_FAILURE);
      assertThat(check.output()).contains("PROBLEM scraper: repair-required", "check: problems found");
    }
    assertThat(Files.readAllBytes(runtime)).isEqualTo(before);
  }

  @Test
  void aCorruptRuntimeFileBlocksOnlyItsServiceAndIsNeverOverwritten() throws Exception {
    Path runtime = work.resolve("data/scraper/runtime.json");
    Files.createDirectories(runtime.getParent());
    Files.writeString(runtime, "{\"schema\":1,\"services\":{");
    int port = FreePorts.next();
    try (JarProcess process = startAll(port)) {
      // 503 alone also means "the scraper is still starting": wait for the verdict itself, in one answer.
      await().atMost(START).until(() -> {
        HttpProbe.Answer answer = HttpProbe.get(port, "/health/ready");
        return answer.status() == 503 && "UP".equals(answer.check("reader"))
            && answer.checkData("supervisor").containsKey("blocked");
      });

      HttpProbe.Answer ready = HttpProbe.get(port, "/health/ready");
      assertThat(ready.checkData("supervisor").getJsonObject("blocked").getString("scraper"))
          .startsWith("corrupt state file " + runtime).contains("not valid JSON");
      process.terminate();
      assertThat(process.waitForExit(Duration.ofSeconds(30))).isEqualTo(0);
    }
    assertThat(Files.readString(runtime)).isEqualTo("{\"schema\":1,\"services\":{");
  }
}
