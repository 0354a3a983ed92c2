package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonObject;

/**
 * The reply of a lane command ({@code mc.scraper.lanes.pause}, {@code .resume}, {@code .pacing}): {@code {v, lane}},
 * the lane after the change (its {@code coverage} is null).
 *
 * @param lane the lane
 */
public record LaneReply(LaneView lane) {

  public static final int VERSION = 1;

  private static final String TYPE = "LaneReply";

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("lane", lane.toJson());
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LaneReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    return new LaneReply(LaneView.fromJson(MessageFields.object(json, TYPE, "lane")));
  }
}
