package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Names one source lane, for pause and resume.
 *
 * @param source the source's name
 */
public record LaneRequest(String source) {

  public static final int VERSION = 1;

  public LaneRequest {
    MessageFields.operatorText(LaneRequest.class, "source", source);
  }

  public JsonObject toJson() {
    return MessageJson.write(this, VERSION);
  }

  public static LaneRequest fromJson(Object body) {
    return MessageJson.read(body, LaneRequest.class, VERSION);
  }
}
