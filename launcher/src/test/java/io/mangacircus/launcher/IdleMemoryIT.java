package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory settings a started jar gives itself, as an operator sees them: the process's VM flags read with
 * {@code jcmd <pid> VM.flags -all}, and its start-up log line; flags the operator gave stay as given.
 */
@Tag("process")
class IdleMemoryIT {

  @TempDir
  Path work;

  private JarProcess startAll(List<String> jvmOptions) {
    int port = FreePorts.next();
    JarProcess process = JarProcess.start(work, Map.of(), jvmOptions, "all", "--data=" + work.resolve("data"),
        "--port=" + port, "--health-port=" + FreePorts.next());
    HttpProbe.awaitReady(port);
    return process;
  }

  @Test
  void withoutFlagsTheProcessShrinksItsIdleHeapSaysSoOnceAtStartAndKeepsTheRatiosTightAfterTheIdleCompaction()
      throws Exception {
    try (JarProcess process = startAll(List.of())) {
      // Read before the idle compaction, which start-up's first quiet 10 s bring, tightens the ratios further.
      Map<String, String> flags = flags(process.pid());

      assertThat(flags).containsEntry("MinHeapFreeRatio", "10 {management}")
          .containsEntry("MaxHeapFreeRatio", "30 {management}")
          .containsEntry("G1PeriodicGCInterval", "0 {default}");   // the idle full GC does its work
      assertThat(process.output().lines().filter(l -> l.contains("memory: idle heap return")))
          .singleElement().asString()
          .contains("INFO", "set MinHeapFreeRatio=10 MaxHeapFreeRatio=30 jdk.nio.maxCachedBufferSize=65536 "
              + "one full GC when idle after work System.trim_native_heap every 30 s")
          .doesNotContain("kept as given");

      // start-up is work: the first quiet 10 s after it compact the heap
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
          .until(() -> process.output().contains("memory: idle after work: heap compacted"));

      assertThat(flags(process.pid())).containsEntry("MinHeapFreeRatio", "0 {management}")
          .containsEntry("MaxHeapFreeRatio", "10 {management}");
      assertThat(process.output().lines().filter(l -> l.contains("memory: idle heap return"))).hasSize(1);
    }
  }

  @Test
  void withExplicitCollectionsForbiddenThePeriodicCycleShrinksTheHeapInstead() throws Exception {
    try (JarProcess process = startAll(List.of("-XX:+DisableExplicitGC"))) {
      Map<String, String> flags = flags(process.pid());

      assertThat(flags).containsEntry("G1PeriodicGCInterval", "15000 {management}");
      assertThat(process.output())
          .contains("not applied: one full GC when idle after work (-XX:+DisableExplicitGC given)");
    }
  }

  @Test
  void flagsTheOperatorGaveAreKeptAsGiven() throws Exception {
    try (JarProcess process = startAll(List.of("-XX:MaxHeapFreeRatio=50", "-XX:G1PeriodicGCInterval=0"))) {
      Map<String, String> flags = flags(process.pid());

      assertThat(flags).containsEntry("MaxHeapFreeRatio", "50 {command line}")
          .containsEntry("G1PeriodicGCInterval", "0 {command line}")
          .containsEntry("MinHeapFreeRatio", "10 {management}");
      assertThat(process.output())
          .contains("kept as given by the operator: MaxHeapFreeRatio=50 G1PeriodicGCInterval=0");
    }
  }

  @Test
  void anotherCollectorThanG1IsLeftAlone() throws Exception {
    try (JarProcess process = startAll(List.of("-XX:+UseSerialGC"))) {
      Map<String, String> flags = flags(process.pid());

      assertThat(flags).containsEntry("MaxHeapFreeRatio", "70 {default}");
      assertThat(process.output()).contains("not applied: G1 options (the JVM does not run G1)");
    }
  }

  private static final Pattern FLAG = Pattern.compile(
      "^\\s*\\S+\\s+(MinHeapFreeRatio|MaxHeapFreeRatio|G1PeriodicGCInterval)\\s+=\\s+(\\S+)\\s+\\{[^}]*}\\s+\\{([^}]*)}");

  /** name → "value {origin}" from {@code jcmd <pid> VM.flags -all}. */
  private static Map<String, String> flags(long pid) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process process = new ProcessBuilder(jcmd.toString(), String.valueOf(pid), "VM.flags", "-all")
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(output).isTrue();
    Map<String, String> flags = new java.util.HashMap<>();
    for (String line : output.lines().toList()) {
      Matcher m = FLAG.matcher(line);
      if (m.find()) {
        flags.put(m.group(1), m.group(2) + " {" + m.group(3) + "}");
      }
    }
    assertThat(flags).as(output).hasSize(3);
    return flags;
  }
}
