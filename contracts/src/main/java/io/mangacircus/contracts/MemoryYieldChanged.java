package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Published on {@link Addresses#LAUNCHER_MEMORY_YIELD} when the launcher of the scraper's process starts or ends a
 * memory-pressure yield.
 *
 * @param node the publishing process ({@code <mode>@<host>:<pid>})
 * @param yielding true: downloads pause at their next checkpoint; false: they may resume
 * @param reason the reading that decided it
 */
public record MemoryYieldChanged(String node, boolean yielding, String reason) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("node", node).put("yielding", yielding).put("reason", reason);
  }

  public static MemoryYieldChanged fromJson(Object body) {
    String type = "MemoryYieldChanged";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    if (!(json.getValue("yielding") instanceof Boolean yielding)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'yielding' (boolean) is required");
    }
    return new MemoryYieldChanged(MessageFields.string(json, type, "node"), yielding,
        MessageFields.string(json, type, "reason"));
  }
}
