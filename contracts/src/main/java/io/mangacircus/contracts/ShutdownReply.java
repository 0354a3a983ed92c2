package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * A launcher's answer to a {@link ShutdownRequest}.
 *
 * @param stopping true when this launcher's process now stops; false when it leaves the stop to the requester's own
 *     process (the pair request reached the launcher of the process that asked: one JVM runs both services)
 * @param node the answering launcher, {@code mode@host:pid}
 */
public record ShutdownReply(boolean stopping, String node) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("stopping", stopping).put("node", node);
  }

  public static ShutdownReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "ShutdownReply");
    MessageFields.requireVersion(json, "ShutdownReply", VERSION);
    if (!(json.getValue("stopping") instanceof Boolean stopping)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          "ShutdownReply: field 'stopping' (boolean) is required");
    }
    return new ShutdownReply(stopping, MessageFields.string(json, "ShutdownReply", "node"));
  }
}
