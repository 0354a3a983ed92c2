package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Memory-pressure yield, sent by a launcher to the scraper it hosts.
 *
 * @param yield true: lanes stop at their next checkpoint and claim nothing; false: they may resume
 * @param reason why, for logs and {@code events.log}
 */
public record YieldRequest(boolean yield, String reason) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("yield", yield).put("reason", reason);
  }

  public static YieldRequest fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "YieldRequest");
    MessageFields.requireVersion(json, "YieldRequest", VERSION);
    if (!(json.getValue("yield") instanceof Boolean yield)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, "YieldRequest: field 'yield' (boolean) is required");
    }
    return new YieldRequest(yield, MessageFields.string(json, "YieldRequest", "reason"));
  }
}
