package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Names one source lane, for pause and resume.
 *
 * @param source the source's name
 */
public record LaneRequest(String source) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source);
  }

  public static LaneRequest fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "LaneRequest");
    MessageFields.requireVersion(json, "LaneRequest", VERSION);
    return new LaneRequest(MessageFields.operatorString(json, "LaneRequest", "source"));
  }
}
