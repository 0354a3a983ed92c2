package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply of {@code mc.scraper.lanes.list}: {@code {v, lanes:[LaneView], yieldReason}}.
 *
 * @param lanes every configured source's lane, with its coverage
 * @param yieldReason why downloads are paused for memory pressure, else null
 */
public record LanesReply(List<LaneView> lanes, String yieldReason) {

  public static final int VERSION = 1;

  private static final String TYPE = "LanesReply";

  public LanesReply {
    lanes = List.copyOf(lanes);
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    lanes.forEach(lane -> list.add(lane.toJson()));
    return new JsonObject().put("v", VERSION).put("lanes", list).put("yieldReason", yieldReason);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LanesReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<LaneView> lanes = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "lanes")) {
      lanes.add(LaneView.fromJson(entry));
    }
    return new LanesReply(lanes, MessageFields.optionalString(json, TYPE, "yieldReason"));
  }
}
