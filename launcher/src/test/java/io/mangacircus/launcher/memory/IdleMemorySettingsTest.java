package io.mangacircus.launcher.memory;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import com.sun.management.VMOption.Origin;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The start-up memory settings, read back through the HotSpot diagnostic MXBean of this very JVM (the launcher's
 * surefire JVM runs G1 with none of these options given), and against stand-in option tables for what an operator may
 * have set on the command line.
 */
class IdleMemorySettingsTest {

  private static final HotSpotDiagnosticMXBean HOTSPOT =
      ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);

  @Test
  void aG1JvmLeftAtItsDefaultsIsToldToShrinkItsHeapWhenIdleAndThenKeepsWhatItWasTold() {
    assertThat(HOTSPOT.getVMOption("UseG1GC").getValue()).isEqualTo("true");
    assertThat(HOTSPOT.getVMOption("MaxHeapFreeRatio").getOrigin()).as("precondition: not set yet").isEqualTo(Origin.DEFAULT);
    IdleMemorySettings.Outcome outcome = IdleMemorySettings.apply(IdleMemorySettings.VmOptions.platform());

    assertThat(HOTSPOT.getVMOption("MinHeapFreeRatio").getValue()).isEqualTo("10");
    assertThat(HOTSPOT.getVMOption("MaxHeapFreeRatio").getValue()).isEqualTo("30");
    assertThat(HOTSPOT.getVMOption("MaxHeapFreeRatio").getOrigin()).isEqualTo(Origin.MANAGEMENT);
    assertThat(HOTSPOT.getVMOption("G1PeriodicGCInterval").getValue())
        .as("the idle compaction replaces the periodic cycle").isEqualTo("0");
    assertThat(outcome.keptAsGiven()).isEmpty();
    assertThat(outcome.notApplied()).isEmpty();
    assertThat(outcome.logLine()).startsWith("memory: idle heap return set MinHeapFreeRatio=10 MaxHeapFreeRatio=30 "
        + "jdk.nio.maxCachedBufferSize=65536 one full GC when idle after work "
        + "System.trim_native_heap every 30 s");
    assertThat(System.getProperty("jdk.nio.maxCachedBufferSize")).isEqualTo("65536");
    assertThat(Thread.getAllStackTraces().keySet()).anyMatch(t -> t.getName().equals("mc-native-heap-trim") && t.isDaemon());

    // Anything no longer at its default is someone's choice: a second start-up pass changes nothing.
    IdleMemorySettings.Outcome again = IdleMemorySettings.apply(IdleMemorySettings.VmOptions.platform());
    assertThat(again.applied())   // not VM options
        .containsExactly("one full GC when idle after work", "System.trim_native_heap every 30 s");
    assertThat(again.keptAsGiven())
        .contains("MaxHeapFreeRatio=30", "jdk.nio.maxCachedBufferSize=65536");
  }

  @Test
  void optionsTheOperatorGaveOnTheCommandLineAreKeptAsGivenAndTheOthersStillSet() {
    OptionTable table = new OptionTable(true);
    table.given("MaxHeapFreeRatio", "50", Origin.VM_CREATION);
    table.given("G1PeriodicGCInterval", "0", Origin.ENVIRON_VAR);
    table.given("TrimNativeHeapInterval", "0", Origin.VM_CREATION);

    IdleMemorySettings.Outcome outcome = IdleMemorySettings.apply(table);

    assertThat(table.sets).containsExactly("MinHeapFreeRatio=10", "-Djdk.nio.maxCachedBufferSize=65536", "compact when idle");
    assertThat(table.get("MaxHeapFreeRatio").getValue()).isEqualTo("50");
    assertThat(outcome.keptAsGiven())
        .containsExactly("MaxHeapFreeRatio=50", "G1PeriodicGCInterval=0", "TrimNativeHeapInterval=0");
    assertThat(outcome.logLine()).contains(
        "kept as given by the operator: MaxHeapFreeRatio=50 G1PeriodicGCInterval=0 TrimNativeHeapInterval=0");
  }

  @Test
  void aJvmThatDoesNotRunG1KeepsItsOptionsAndTheLogSaysWhy() {
    OptionTable table = new OptionTable(false);

    IdleMemorySettings.Outcome outcome = IdleMemorySettings.apply(table);

    assertThat(table.sets)   // none of them is G1's
        .containsExactly("-Djdk.nio.maxCachedBufferSize=65536", "compact when idle", "trim every 30 s");
    assertThat(outcome.logLine()).contains("not applied: G1 options (the JVM does not run G1)");
  }

  @Test
  void aValueTheJvmRefusesIsReportedAndStartUpGoesOn() {
    OptionTable table = new OptionTable(true);
    table.given("MinHeapFreeRatio", "50", Origin.VM_CREATION);   // above the 30 % maximum the process would set

    IdleMemorySettings.Outcome outcome = IdleMemorySettings.apply(table);

    assertThat(table.sets).containsExactly("-Djdk.nio.maxCachedBufferSize=65536", "compact when idle",
        "trim every 30 s");
    assertThat(outcome.notApplied()).singleElement().asString()
        .startsWith("MaxHeapFreeRatio=30 (").contains("MinHeapFreeRatio");
  }

  @Test
  void anOperatorWhoForbadeSystemGcGetsNoIdleCompactionAndTheLogSaysWhy() {
    OptionTable table = new OptionTable(true);
    table.given("DisableExplicitGC", "true", Origin.VM_CREATION);

    IdleMemorySettings.Outcome outcome = IdleMemorySettings.apply(table);

    assertThat(table.sets).doesNotContain("compact when idle")
        .contains("G1PeriodicGCInterval=15000", "trim every 30 s");   // the periodic cycle instead
    assertThat(outcome.logLine()).contains("not applied: one full GC when idle after work (-XX:+DisableExplicitGC given)");
  }

  @Test
  void theIdleCompactionTightensTheHeapRatioOnlyWhenTheProcessSetTheRatioItself() {
    OptionTable defaults = new OptionTable(true);
    IdleMemorySettings.apply(defaults);
    assertThat(defaults.sets).contains("MaxHeapFreeRatio=30", "compact when idle with MaxHeapFreeRatio=10");

    OptionTable given = new OptionTable(true);
    given.given("MaxHeapFreeRatio", "50", Origin.VM_CREATION);
    IdleMemorySettings.apply(given);
    assertThat(given.sets).contains("compact when idle").noneMatch(set -> set.contains("with MaxHeapFreeRatio"));
  }

  @Test
  void aBufferCacheLimitTheOperatorGaveIsKept() {
    OptionTable table = new OptionTable(true);
    table.properties.put("jdk.nio.maxCachedBufferSize", "1048576");

    IdleMemorySettings.Outcome outcome = IdleMemorySettings.apply(table);

    assertThat(table.properties).containsEntry("jdk.nio.maxCachedBufferSize", "1048576");
    assertThat(table.sets).noneMatch(set -> set.startsWith("-D"));
    assertThat(outcome.keptAsGiven()).contains("jdk.nio.maxCachedBufferSize=1048576");
  }

  /** Options as a JVM reports them, checking the one rule of the real VM that matters here: min free ≤ max free. */
  private static final class OptionTable implements IdleMemorySettings.VmOptions {
    private final Map<String, VMOption> options = new HashMap<>();
    final Map<String, String> properties = new HashMap<>();
    final List<String> sets = new ArrayList<>();

    OptionTable(boolean g1) {
      options.put("UseG1GC", new VMOption("UseG1GC", String.valueOf(g1), false, Origin.ERGONOMIC));
      given("MinHeapFreeRatio", "40", Origin.DEFAULT);
      given("MaxHeapFreeRatio", "70", Origin.DEFAULT);
      given("G1PeriodicGCInterval", "0", Origin.DEFAULT);
      given("TrimNativeHeapInterval", "0", Origin.DEFAULT);
      given("DisableExplicitGC", "false", Origin.DEFAULT);
    }

    @Override
    public void trimNativeHeapEvery(int seconds) {
      sets.add("trim every " + seconds + " s");
    }

    @Override
    public void compactHeapWhenIdle(String idleMaxHeapFreeRatio) {
      sets.add(idleMaxHeapFreeRatio == null ? "compact when idle"
          : "compact when idle with MaxHeapFreeRatio=" + idleMaxHeapFreeRatio);
    }

    @Override
    public String systemProperty(String name) {
      return properties.get(name);
    }

    @Override
    public void setSystemProperty(String name, String value) {
      sets.add("-D" + name + "=" + value);
      properties.put(name, value);
    }

    void given(String name, String value, Origin origin) {
      options.put(name, new VMOption(name, value, true, origin));
    }

    @Override
    public VMOption get(String name) {
      return options.get(name);
    }

    @Override
    public void set(String name, String value) {
      int v = Integer.parseInt(value);
      if (name.equals("MaxHeapFreeRatio") && v < Integer.parseInt(get("MinHeapFreeRatio").getValue())) {
        throw new IllegalArgumentException("MaxHeapFreeRatio must be >= MinHeapFreeRatio");
      }
      if (name.equals("MinHeapFreeRatio") && v > Integer.parseInt(get("MaxHeapFreeRatio").getValue())) {
        throw new IllegalArgumentException("MinHeapFreeRatio must be <= MaxHeapFreeRatio");
      }
      sets.add(name + "=" + value);
      given(name, value, Origin.MANAGEMENT);
    }
  }
}
