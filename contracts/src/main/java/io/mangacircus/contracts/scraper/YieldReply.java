package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonObject;

/**
 * The reply of {@code mc.scraper.downloads.yield}: {@code {v, yielding}}.
 *
 * @param yielding whether downloads now pause at their next checkpoint
 */
public record YieldReply(boolean yielding) {

  public static final int VERSION = 1;

  private static final String TYPE = "YieldReply";

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("yielding", yielding);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static YieldReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    return new YieldReply(MessageFields.bool(json, TYPE, "yielding"));
  }
}
