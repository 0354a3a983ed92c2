package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;

/**
 * The reply of a lane command ({@code mc.scraper.lanes.pause}, {@code .resume}, {@code .pacing}): {@code {v, lane}},
 * the lane after the change (its {@code coverage} is null).
 *
 * @param lane the lane
 */
public record LaneReply(LaneView lane) implements Message {

  public static final int VERSION = 1;

  public LaneReply {
    MessageFields.required(LaneReply.class, "lane", lane);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LaneReply fromJson(Object body) {
    return MessageJson.read(body, LaneReply.class, VERSION);
  }
}
