package io.mangacircus.launcher.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's and the process's meters (classes, compilation, GC, heap pressure, memory, threads, CPU, uptime: the set
 * Vert.x binds with {@code setJvmMetricsEnabled}), bound by the launcher once its services started instead of while
 * Vert.x is built: binding them loads the JMX beans and a few hundred classes the reader does not need to answer
 * (docs/operations.md#start-up-time). Closing it stops the GC and heap-pressure listeners.
 */
public final class JvmMetrics implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(JvmMetrics.class);

  private final List<MeterBinder> binders;

  private JvmMetrics(List<MeterBinder> binders) {
    this.binders = binders;
  }

  /** Binds every JVM and process meter to {@code registry}. */
  public static JvmMetrics bind(MeterRegistry registry) {
    List<MeterBinder> binders = List.of(new ClassLoaderMetrics(), new JvmCompilationMetrics(), new JvmGcMetrics(),
        new JvmHeapPressureMetrics(), new JvmInfoMetrics(), new JvmMemoryMetrics(), new JvmThreadMetrics(),
        new ProcessorMetrics(), new UptimeMetrics());
    binders.forEach(binder -> binder.bindTo(registry));
    return new JvmMetrics(binders);
  }

  @Override
  public void close() {
    for (MeterBinder binder : binders) {
      if (binder instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          LOG.warn("could not close the JVM meters of {}: {}", binder.getClass().getSimpleName(), e.toString());
        }
      }
    }
  }
}
