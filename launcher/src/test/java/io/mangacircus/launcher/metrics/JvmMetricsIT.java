package io.mangacircus.launcher.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM's meters are bound by the launcher once its services started, not when Vert.x is built: binding them loads
 * the JMX beans and a few hundred classes the reader does not need to answer (docs/operations.md#start-up-time).
 */
class JvmMetricsIT {

  /** One meter of each binder Vert.x used to bind when it was built. */
  private static final String[] ONE_OF_EACH = {"jvm.classes.loaded", "jvm.compilation.time", "jvm.gc.max.data.size",
      "jvm.memory.usage.after.gc", "jvm.info", "jvm.memory.used", "jvm.threads.live", "process.cpu.usage",
      "process.uptime"};

  @TempDir
  Path data;

  @Test
  void jvmMetersAreNotBoundWhenVertxIsBuiltButOnceTheServicesStarted() {
    try (LauncherHarness h = new LauncherHarness(data, "{}")) {
      assertThat(meterNames(h.registry())).doesNotContain(ONE_OF_EACH);

      h.startStandard(Mode.ALL);

      assertThat(meterNames(h.registry())).contains(ONE_OF_EACH);
      assertThat(HttpProbe.get(h.port(), "/health/ready").status()).isEqualTo(200);
    }
  }

  private static Set<String> meterNames(MeterRegistry registry) {
    return registry.getMeters().stream().map(Meter::getId).map(Meter.Id::getName).collect(Collectors.toSet());
  }
}
