package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * One supervised service inside a {@link LauncherStatus}.
 *
 * @param service service name
 * @param status current status
 * @param failuresInWindow failures counted in the crash budget's rolling window
 * @param restarts redeploys since the runtime file was created
 * @param parkedAt ISO-8601 instant it was parked, or null
 * @param reason why it is not up (last failure or the parking reason), or null
 */
public record ServiceState(String service, ServiceStatus status, int failuresInWindow, long restarts,
    String parkedAt, String reason) implements MessagePart {

  public ServiceState {
    MessageFields.nonBlank(ServiceState.class, "service", service);
    MessageFields.required(ServiceState.class, "status", status);
  }

  /** Parses one entry; throws {@link InvalidMessageException} when it does not match the contract. */
  public static ServiceState fromJson(JsonObject json) {
    return MessageJson.read(json, ServiceState.class);
  }
}
