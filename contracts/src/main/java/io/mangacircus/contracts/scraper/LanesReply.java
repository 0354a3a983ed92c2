package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import java.util.List;

/**
 * The reply of {@code mc.scraper.lanes.list}: {@code {v, lanes:[LaneView], yieldReason}}.
 *
 * @param lanes every configured source's lane, with its coverage
 * @param yieldReason why downloads are paused for memory pressure, else null
 */
public record LanesReply(List<LaneView> lanes, String yieldReason) implements Message {

  public static final int VERSION = 1;

  public LanesReply {
    lanes = MessageFields.list(LanesReply.class, "lanes", lanes);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LanesReply fromJson(Object body) {
    return MessageJson.read(body, LanesReply.class, VERSION);
  }
}
