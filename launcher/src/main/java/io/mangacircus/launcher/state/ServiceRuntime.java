package io.mangacircus.launcher.state;

import io.mangacircus.contracts.ServiceStatus;
import java.time.Instant;
import java.util.List;

/**
 * What a launcher persists about one service: {@code {status, failures, parkedAt, restarts}} plus the reason it is not
 * up (docs/operations.md, "Supervision and the crash budget").
 *
 * @param status last known supervision status
 * @param failures failure instants inside the crash budget's window, oldest first
 * @param parkedAt when the service was parked, or null
 * @param restarts redeploys since the file was created
 * @param reason why the service last failed or was parked, or null
 */
public record ServiceRuntime(ServiceStatus status, List<Instant> failures, Instant parkedAt, long restarts,
    String reason) {

  public ServiceRuntime {
    failures = List.copyOf(failures);
  }

  /** A service that has never run. */
  public static ServiceRuntime fresh() {
    return new ServiceRuntime(ServiceStatus.STOPPED, List.of(), null, 0, null);
  }
}
