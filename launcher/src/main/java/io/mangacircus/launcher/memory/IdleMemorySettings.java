package io.mangacircus.launcher.memory;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM-wide memory settings a service process gives itself at start-up, before Vert.x loads, so that it hands memory
 * back to the system when idle: G1's manageable heap-shrink and periodic-collection options, and a periodic native heap
 * trim. Each one only where the operator left it alone (a VM option whose origin is not {@code DEFAULT} is kept as
 * given), the G1 options only under G1. It never touches the heap's maximum or initial size (the Docker image's
 * {@code -XX:MaxRAMPercentage} stays in force); see docs/operations.md#memory.
 */
public final class IdleMemorySettings {

  /**
   * G1's manageable options, in the order they are set (the minimum free ratio first: the VM refuses a maximum below
   * the current minimum). With no heap-sizing flag G1 grows the heap during a download and keeps it committed for ever
   * afterwards, since nothing allocates enough to start another collection: a collection every 15 s of idleness
   * ({@code G1PeriodicGCInterval}, in ms) lets it shrink the heap at the end of the concurrent cycle down to the live
   * data plus at most 30 % free ({@code MaxHeapFreeRatio}).
   */
  public static final Map<String, String> G1_OPTIONS = ordered(
      "MinHeapFreeRatio", "10",
      "MaxHeapFreeRatio", "30",
      "G1PeriodicGCInterval", "15000");

  /**
   * How often the C heap's free memory is handed back to the system ({@code jcmd System.trim_native_heap}, glibc's
   * {@code malloc_trim}), in seconds: the JIT compilers' arenas of a download (≈ 30 MB at peak) are freed to malloc
   * but stay resident otherwise. Not done when the operator set {@code -XX:TrimNativeHeapInterval}.
   */
  public static final int NATIVE_TRIM_SECONDS = 30;

  private static final String TRIM_INTERVAL_OPTION = "TrimNativeHeapInterval";

  /**
   * The largest temporary direct buffer the JDK keeps per thread for I/O from heap buffers, in bytes (the JDK's default
   * is no limit): set as a system property before the JDK's NIO reads it. Without it every thread that ever wrote a
   * page to a file keeps a page-sized (≈ 200 KB) direct buffer for good, ≈ 4–7 MB for the worker threads after a
   * download; above it a buffer is allocated per write and freed (then trimmed).
   */
  public static final String NIO_BUFFER_CACHE = "jdk.nio.maxCachedBufferSize";
  static final String NIO_BUFFER_CACHE_BYTES = "65536";

  /**
   * G1's periodic collection, set only where the idle compaction cannot run ({@code -XX:+DisableExplicitGC}): measured,
   * its concurrent cycles every 15 s of idleness counted the idle process's fresh garbage as used at their remark and
   * grew the compacted heap back from 28–32 to 36–40 MiB (docs/benchmarks/2026-12-02.md).
   */
  private static final String PERIODIC_GC = "G1PeriodicGCInterval";

  /** The operator's way to forbid {@code System.gc()}, and with it the idle compaction. */
  private static final String DISABLE_EXPLICIT_GC = "DisableExplicitGC";

  /**
   * The {@code MaxHeapFreeRatio} of the idle compaction's collection, when the process set that option itself: the heap
   * is sized in whole regions (4 MB with the default maximum), so 30 % left ≈ 36 MB for ≈ 20 MB of live data, 10 % ≈ 28.
   * While the process stays idle after it, {@code MinHeapFreeRatio} is 0 and this stays in force; the first busy 10 s
   * put 10 and 30 back.
   */
  static final String IDLE_MAX_HEAP_FREE_RATIO = "10";

  /** The log's name for {@link IdleCompaction}: one full collection in the first quiet 10 s after each busy period. */
  static final String COMPACTION = "one full GC when idle after work";

  /** What was applied and what was kept as the operator gave it; {@link #logLine()} is the one start-up line. */
  public record Outcome(List<String> applied, List<String> keptAsGiven, List<String> notApplied) {

    /** One line for the start-up log. */
    public String logLine() {
      StringBuilder line = new StringBuilder("memory: idle heap return ");
      line.append(applied.isEmpty() ? "not configured by the process" : "set " + String.join(" ", applied));
      if (!keptAsGiven.isEmpty()) {
        line.append("; kept as given by the operator: ").append(String.join(" ", keptAsGiven));
      }
      if (!notApplied.isEmpty()) {
        line.append("; not applied: ").append(String.join("; ", notApplied));
      }
      return line.append(" (docs/operations.md#memory)").toString();
    }
  }

  /** The VM options a process can read and, where manageable, change: the running JVM's, or a test's stand-in. */
  public interface VmOptions {

    /** The option's current value and origin. */
    VMOption get(String name);

    /** Changes a manageable option; {@link IllegalArgumentException} when the VM refuses the value. */
    void set(String name, String value);

    /** Starts handing the C heap's free memory back to the system every {@code seconds}. */
    void trimNativeHeapEvery(int seconds);

    /**
     * Starts compacting the heap once whenever the process goes idle after work ({@link IdleCompaction}).
     *
     * @param idleMaxHeapFreeRatio the {@code MaxHeapFreeRatio} to collect with and keep while idle ({@code
     *     MinHeapFreeRatio} 0 meanwhile; the current ones come back when the process works again), or null to leave
     *     the options alone
     */
    void compactHeapWhenIdle(String idleMaxHeapFreeRatio);

    /** A system property, or null. */
    String systemProperty(String name);

    /** Sets a system property. */
    void setSystemProperty(String name, String value);

    /** This JVM's options, through the HotSpot diagnostic MXBean. */
    static VmOptions platform() {
      HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      return new VmOptions() {
        @Override
        public VMOption get(String name) {
          return bean.getVMOption(name);
        }

        @Override
        public void set(String name, String value) {
          bean.setVMOption(name, value);
        }

        @Override
        public void trimNativeHeapEvery(int seconds) {
          NativeHeapTrim.start(seconds);
        }

        @Override
        public void compactHeapWhenIdle(String idleMaxHeapFreeRatio) {
          NativeHeapTrim.compactWhenIdle(idleMaxHeapFreeRatio);
        }

        @Override
        public String systemProperty(String name) {
          return System.getProperty(name);
        }

        @Override
        public void setSystemProperty(String name, String value) {
          System.setProperty(name, value);
        }
      };
    }
  }

  private IdleMemorySettings() {
  }

  /** Applies the settings to this JVM. */
  public static Outcome applyToThisProcess() {
    return apply(VmOptions.platform());
  }

  /** Applies the settings through {@code options}, each only where left at its default. */
  public static Outcome apply(VmOptions options) {
    List<String> applied = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    List<String> notApplied = new ArrayList<>();
    boolean g1 = "true".equals(options.get("UseG1GC").getValue());
    boolean compactionAllowed = !"true".equals(options.get(DISABLE_EXPLICIT_GC).getValue());
    if (!g1) {
      notApplied.add("G1 options (the JVM does not run G1)");
    } else {
      for (Map.Entry<String, String> option : G1_OPTIONS.entrySet()) {
        VMOption current = options.get(option.getKey());
        if (current.getOrigin() != VMOption.Origin.DEFAULT) {
          kept.add(option.getKey() + "=" + current.getValue());
          continue;
        }
        if (option.getKey().equals(PERIODIC_GC) && compactionAllowed) {
          continue;   // the idle compaction does its work, and a periodic cycle would grow the compacted heap again
        }
        try {
          options.set(option.getKey(), option.getValue());
          applied.add(option.getKey() + "=" + option.getValue());
        } catch (IllegalArgumentException e) {
          notApplied.add(option.getKey() + "=" + option.getValue() + " (" + e.getMessage() + ")");
        }
      }
    }
    String nioCache = options.systemProperty(NIO_BUFFER_CACHE);
    if (nioCache != null) {
      kept.add(NIO_BUFFER_CACHE + "=" + nioCache);
    } else {
      options.setSystemProperty(NIO_BUFFER_CACHE, NIO_BUFFER_CACHE_BYTES);
      applied.add(NIO_BUFFER_CACHE + "=" + NIO_BUFFER_CACHE_BYTES);
    }
    // Without it the heap G1 grew during a download stays at its peak less what one concurrent cycle frees (the old
    // regions' garbage is only counted out after the cycle's remark, where G1 sizes the heap): ≈ 48 MiB for 20 live.
    boolean compacting = false;
    if (!compactionAllowed) {
      notApplied.add(COMPACTION + " (-XX:+" + DISABLE_EXPLICIT_GC + " given)");
    } else {
      try {
        // Our own MaxHeapFreeRatio is tightened for that one collection: a busy process keeps its room to grow.
        boolean ours = applied.contains("MaxHeapFreeRatio=" + G1_OPTIONS.get("MaxHeapFreeRatio"));
        options.compactHeapWhenIdle(ours ? IDLE_MAX_HEAP_FREE_RATIO : null);
        applied.add(COMPACTION);
        compacting = true;
      } catch (RuntimeException e) {
        notApplied.add(COMPACTION + " (" + e.getMessage() + ")");
      }
    }
    if (g1 && !compacting && compactionAllowed
        && options.get(PERIODIC_GC).getOrigin() == VMOption.Origin.DEFAULT) {
      try {   // no compaction after all: the periodic cycle is the next best thing
        options.set(PERIODIC_GC, G1_OPTIONS.get(PERIODIC_GC));
        applied.add(PERIODIC_GC + "=" + G1_OPTIONS.get(PERIODIC_GC));
      } catch (IllegalArgumentException e) {
        notApplied.add(PERIODIC_GC + "=" + G1_OPTIONS.get(PERIODIC_GC) + " (" + e.getMessage() + ")");
      }
    }
    VMOption trimInterval = optional(options, TRIM_INTERVAL_OPTION);
    if (trimInterval == null) {
      notApplied.add("native heap trim (this JVM has no " + TRIM_INTERVAL_OPTION + ")");
    } else if (trimInterval.getOrigin() != VMOption.Origin.DEFAULT) {
      kept.add(TRIM_INTERVAL_OPTION + "=" + trimInterval.getValue());
    } else {
      try {
        options.trimNativeHeapEvery(NATIVE_TRIM_SECONDS);
        applied.add("System.trim_native_heap every " + NATIVE_TRIM_SECONDS + " s");
      } catch (RuntimeException e) {
        notApplied.add("native heap trim (" + e.getMessage() + ")");
      }
    }
    return new Outcome(List.copyOf(applied), List.copyOf(kept), List.copyOf(notApplied));
  }

  private static VMOption optional(VmOptions options, String name) {
    try {
      return options.get(name);
    } catch (IllegalArgumentException e) {
      return null;   // an older JVM without the option
    }
  }

  private static Map<String, String> ordered(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(map);
  }
}
