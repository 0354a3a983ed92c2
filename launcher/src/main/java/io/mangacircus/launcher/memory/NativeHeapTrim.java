package io.mangacircus.launcher.memory;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands memory back to the system when idle, on one daemon thread: the C heap's free memory through the JVM's own
 * {@code System.trim_native_heap} diagnostic command (what {@code -XX:TrimNativeHeapInterval} does on newer JVMs) when
 * {@link NativeTrimSchedule} says so, and once after each busy period a full collection ({@link IdleCompaction}), after which G1 shrinks the
 * heap to the live data plus {@code MaxHeapFreeRatio}; see docs/operations.md#memory.
 */
final class NativeHeapTrim {

  private static final Logger LOG = LoggerFactory.getLogger(NativeHeapTrim.class);

  private static final String MAX_FREE = "MaxHeapFreeRatio";
  private static final String MIN_FREE = "MinHeapFreeRatio";
  private static final Path STATM = Path.of("/proc/self/statm");
  private static final long PAGE_BYTES = 4096;

  /** How often the process's CPU is read to tell whether it is idle, in seconds. */
  static final int IDLE_CHECK_SECONDS = 10;

  private static ScheduledExecutorService timer;
  private static ObjectName trimCommand;
  private static IdleCompaction compaction;
  private static String compactionMaxHeapFreeRatio;
  private static String busyMinHeapFreeRatio;
  private static String busyMaxHeapFreeRatio;
  private static long lastCheckNanos;
  private static long lastCpuNanos;
  private static NativeTrimSchedule trimSchedule;

  private NativeHeapTrim() {
  }

  /**
   * Runs the command every {@code seconds}; once per JVM. Only called where the JVM has {@code TrimNativeHeapInterval},
   * which came after the command, so the command is there. Nothing here touches the platform MBean server: building
   * it (every platform MXBean, the flight recorder's included) cost ≈ 0.3 s of start-up; the first trim does it, off
   * the start path, and a JVM that refuses the command is said once in the log (see {@link #trim()}).
   */
  static synchronized void start(int seconds) {
    if (trimCommand != null) {
      return;
    }
    try {
      trimCommand = new ObjectName("com.sun.management:type=DiagnosticCommand");
    } catch (JMException e) {
      throw new IllegalStateException("diagnostic commands unavailable: " + e.getMessage(), e);
    }
    trimSchedule = new NativeTrimSchedule(TimeUnit.SECONDS.toNanos(seconds), NativeTrimSchedule.IDLE_GROWTH_BYTES,
        System.nanoTime());
    ensureTimer();
  }

  /** Runs one full collection in the first idle interval after each busy period (see {@link IdleCompaction}). */
  static synchronized void compactWhenIdle(String idleMaxHeapFreeRatio) {
    if (!(ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean)) {
      throw new IllegalStateException("this JVM does not report its process CPU time");
    }
    if (compaction != null) {
      return;
    }
    compaction = new IdleCompaction(IdleCompaction.IDLE_CPU_SHARE);
    compactionMaxHeapFreeRatio = idleMaxHeapFreeRatio;
    ensureTimer();
  }

  private static void ensureTimer() {
    if (timer != null) {
      return;
    }
    lastCheckNanos = System.nanoTime();
    lastCpuNanos = processCpuNanos();
    timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "mc-native-heap-trim");
      thread.setDaemon(true);
      thread.setPriority(Thread.MIN_PRIORITY);
      return thread;
    });
    timer.scheduleWithFixedDelay(NativeHeapTrim::tick, IDLE_CHECK_SECONDS, IDLE_CHECK_SECONDS, TimeUnit.SECONDS);
  }

  private static synchronized void tick() {
    try {
      long now = System.nanoTime();
      long cpu = processCpuNanos();
      long cpuUsed = cpu - lastCpuNanos;
      long interval = now - lastCheckNanos;
      boolean idle = interval > 0 && cpuUsed < IdleCompaction.IDLE_CPU_SHARE * interval;
      boolean compacted = false;
      if (compaction != null && compaction.compactNow(cpuUsed, interval)) {
        compact();
        compacted = true;
      } else if (compaction != null && compaction.takeBusySizing()) {
        restoreBusySizing();
      }
      if (trimSchedule != null && trimSchedule.trimNow(now, idle, compacted, residentBytes())) {
        if (trim()) {
          trimSchedule.trimmed(System.nanoTime(), residentBytes());
        }
      }
      lastCheckNanos = System.nanoTime();
      lastCpuNanos = processCpuNanos();   // the collection's and the trim's own CPU are not the next interval's work
    } catch (RuntimeException e) {
      LOG.debug("idle memory return failed: {}", e.toString());
    }
  }

  /**
   * One full collection. When the process set the heap's free ratios itself, they are tightened first
   * ({@code MinHeapFreeRatio} 0, {@code MaxHeapFreeRatio} at the idle value) and stay so while the process is idle:
   * otherwise the next concurrent cycle's remark, which counts partly filled regions as full, grew the compacted heap
   * back from 28–32 to 36–40 MiB. The first busy interval puts the busy ratios back ({@link #restoreBusySizing()}).
   */
  private static void compact() {
    MemoryUsage before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    long start = System.nanoTime();
    if (compactionMaxHeapFreeRatio != null && busyMinHeapFreeRatio == null) {
      HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      String busyMin = hotspot.getVMOption(MIN_FREE).getValue();
      String busyMax = hotspot.getVMOption(MAX_FREE).getValue();
      try {
        hotspot.setVMOption(MIN_FREE, "0");   // the minimum first: the VM refuses a maximum below it
        hotspot.setVMOption(MAX_FREE, compactionMaxHeapFreeRatio);
        busyMinHeapFreeRatio = busyMin;
        busyMaxHeapFreeRatio = busyMax;
      } catch (IllegalArgumentException e) {
        setQuietly(hotspot, MAX_FREE, busyMax);   // the VM refused: collect with the busy ratios
        setQuietly(hotspot, MIN_FREE, busyMin);
      }
    }
    System.gc();
    MemoryUsage after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    LOG.info("memory: idle after work: heap compacted in {} ms, used {} -> {} MiB, committed {} -> {} MiB "
        + "(docs/operations.md#memory)", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
        before.getUsed() >> 20, after.getUsed() >> 20, before.getCommitted() >> 20, after.getCommitted() >> 20);
  }

  /** Puts back the free ratios a busy process grows its heap with, after an idle period's tight ones. */
  private static void restoreBusySizing() {
    if (busyMinHeapFreeRatio == null) {
      return;
    }
    HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    setQuietly(hotspot, MAX_FREE, busyMaxHeapFreeRatio);   // the maximum first: it must not fall below the minimum
    setQuietly(hotspot, MIN_FREE, busyMinHeapFreeRatio);
    busyMinHeapFreeRatio = null;
    busyMaxHeapFreeRatio = null;
  }

  private static void setQuietly(HotSpotDiagnosticMXBean hotspot, String option, String value) {
    try {
      hotspot.setVMOption(option, value);
    } catch (IllegalArgumentException e) {
      LOG.debug("memory: {}={} refused: {}", option, value, e.getMessage());
    }
  }

  /** Trims the C heap; false when the JVM refused, after which the schedule is dropped. */
  private static boolean trim() {
    try {
      Object result = ManagementFactory.getPlatformMBeanServer().invoke(trimCommand, "systemTrimNativeHeap",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
      LOG.debug("{}", result);
      return true;
    } catch (JMException | RuntimeException e) {
      trimSchedule = null;   // not again: the JVM refuses the command
      LOG.warn("memory: native heap trim stopped: this JVM refused System.trim_native_heap ({}); "
          + "docs/operations.md#memory", e.toString());
      return false;
    }
  }

  /** The resident set from {@code /proc/self/statm}, or -1 where there is none. */
  private static long residentBytes() {
    try {
      String[] fields = Files.readString(STATM).trim().split(" ");
      return Long.parseLong(fields[1]) * PAGE_BYTES;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The process's CPU time; 0 on a JVM that does not report it (then every interval reads as idle). */
  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean bean
        ? bean.getProcessCpuTime() : 0;
  }
}
