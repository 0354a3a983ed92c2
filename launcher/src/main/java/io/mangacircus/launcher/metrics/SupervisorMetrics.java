package io.mangacircus.launcher.metrics;

import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.supervision.ServiceSupervisor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * Registers {@code mc_service_up}, {@code mc_supervisor_restarts_total}, {@code mc_supervisor_parked} and
 * {@code mc_supervisor_blocked} per service.
 */
public final class SupervisorMetrics {

  private SupervisorMetrics() {
  }

  /** Binds the meters of every supervisor to {@code registry}. */
  public static void bind(MeterRegistry registry, List<ServiceSupervisor> supervisors) {
    for (ServiceSupervisor supervisor : supervisors) {
      Gauge.builder("mc.service.up", supervisor, s -> s.status() == ServiceStatus.UP ? 1 : 0)
          .description("1 while the service is deployed and up, else 0")
          .tag("service", supervisor.name()).register(registry);
      Gauge.builder("mc.supervisor.parked", supervisor, s -> s.status() == ServiceStatus.REPAIR_REQUIRED ? 1 : 0)
          .description("1 while the service is parked as repair-required, else 0")
          .tag("service", supervisor.name()).register(registry);
      Gauge.builder("mc.supervisor.blocked", supervisor, s -> s.status() == ServiceStatus.BLOCKED ? 1 : 0)
          .description("1 while the service is blocked by a state file that does not parse, else 0")
          .tag("service", supervisor.name()).register(registry);
      FunctionCounter.builder("mc.supervisor.restarts", supervisor, ServiceSupervisor::restarts)
          .description("Redeploys after failures, including earlier runs of the process")
          .tag("service", supervisor.name()).register(registry);
    }
  }
}
