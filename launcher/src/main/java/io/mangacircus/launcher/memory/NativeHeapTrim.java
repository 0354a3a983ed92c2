package io.mangacircus.launcher.memory;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the C heap's free memory back to the system at a fixed interval through the JVM's own
 * {@code System.trim_native_heap} diagnostic command (what {@code -XX:TrimNativeHeapInterval} does on newer JVMs), on
 * one daemon thread; see docs/operations.md#memory.
 */
final class NativeHeapTrim {

  private static final Logger LOG = LoggerFactory.getLogger(NativeHeapTrim.class);

  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private NativeHeapTrim() {
  }

  /** Checks the command exists (throws when not), then runs it every {@code seconds}; once per JVM. */
  static void start(int seconds) {
    ObjectName diagnostics;
    try {
      diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
      if (Arrays.stream(ManagementFactory.getPlatformMBeanServer().getMBeanInfo(diagnostics).getOperations())
          .noneMatch(op -> op.getName().equals("systemTrimNativeHeap"))) {
        throw new IllegalStateException("this JVM has no System.trim_native_heap command");
      }
    } catch (JMException e) {
      throw new IllegalStateException("diagnostic commands unavailable: " + e.getMessage(), e);
    }
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "mc-native-heap-trim");
      thread.setDaemon(true);
      thread.setPriority(Thread.MIN_PRIORITY);
      return thread;
    });
    timer.scheduleWithFixedDelay(() -> trim(diagnostics), seconds, seconds, TimeUnit.SECONDS);
  }

  private static void trim(ObjectName diagnostics) {
    try {
      Object result = ManagementFactory.getPlatformMBeanServer().invoke(diagnostics, "systemTrimNativeHeap",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
      LOG.debug("{}", result);
    } catch (JMException | RuntimeException e) {
      LOG.debug("native heap trim failed: {}", e.toString());
    }
  }
}
