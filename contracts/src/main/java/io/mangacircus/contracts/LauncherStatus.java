package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Published on {@link Addresses#LAUNCHER_STATUS} when a supervised service changes status.
 *
 * @param node the publishing process ({@code <mode>@<host>:<pid>})
 * @param services the state of every service this launcher supervises
 * @param memory where this launcher's memory-yield readings come from and the last one, for example
 *     {@code cgroup v2 limit 512 MiB: 43% used} or {@code host /proc/meminfo: 61% used}; null (and absent) when it
 *     watches none
 */
public record LauncherStatus(String node, List<ServiceState> services,
    @JsonInclude(JsonInclude.Include.NON_NULL) String memory) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public LauncherStatus {
    MessageFields.nonBlank(LauncherStatus.class, "node", node);
    services = MessageFields.list(LauncherStatus.class, "services", services);
  }

  /** A status without memory readings. */
  public LauncherStatus(String node, List<ServiceState> services) {
    this(node, services, null);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LauncherStatus fromJson(Object body) {
    return MessageJson.read(body, LauncherStatus.class, VERSION);
  }
}
