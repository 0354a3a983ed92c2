package io.mangacircus.contracts;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Published on {@link Addresses#LAUNCHER_STATUS} when a supervised service changes status.
 *
 * @param node the publishing process ({@code <mode>@<host>:<pid>})
 * @param services the state of every service this launcher supervises
 * @param memory where this launcher's memory-yield readings come from and the last one, for example
 *     {@code cgroup v2 limit 512 MiB: 43% used} or {@code host /proc/meminfo: 61% used}; null when it watches none
 */
public record LauncherStatus(String node, List<ServiceState> services, String memory) {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public LauncherStatus {
    services = List.copyOf(services);
  }

  /** A status without memory readings. */
  public LauncherStatus(String node, List<ServiceState> services) {
    this(node, services, null);
  }

  public JsonObject toJson() {
    JsonArray array = new JsonArray();
    services.forEach(s -> array.add(s.toJson()));
    JsonObject json = new JsonObject().put("v", VERSION).put("node", node).put("services", array);
    if (memory != null) {
      json.put("memory", memory);
    }
    return json;
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LauncherStatus fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "LauncherStatus");
    MessageFields.requireVersion(json, "LauncherStatus", VERSION);
    List<ServiceState> services = new ArrayList<>();
    for (Object entry : MessageFields.array(json, "LauncherStatus", "services")) {
      services.add(ServiceState.fromJson(MessageFields.object(entry, "ServiceState")));
    }
    return new LauncherStatus(MessageFields.string(json, "LauncherStatus", "node"), services,
        MessageFields.optionalString(json, "LauncherStatus", "memory"));
  }
}
