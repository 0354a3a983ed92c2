package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Asks a launcher to stop its process gracefully, exactly as SIGTERM does.
 *
 * @param requestedBy who asked, for the launcher's log (for example {@code 'admin' over HTTP})
 */
public record ShutdownRequest(String requestedBy) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("requestedBy", requestedBy);
  }

  public static ShutdownRequest fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "ShutdownRequest");
    MessageFields.requireVersion(json, "ShutdownRequest", VERSION);
    return new ShutdownRequest(MessageFields.string(json, "ShutdownRequest", "requestedBy"));
  }
}
