package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageJson;

/**
 * The reply of {@code mc.scraper.downloads.yield}: {@code {v, yielding}}.
 *
 * @param yielding whether downloads now pause at their next checkpoint
 */
public record YieldReply(boolean yielding) implements Message {

  public static final int VERSION = 1;

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static YieldReply fromJson(Object body) {
    return MessageJson.read(body, YieldReply.class, VERSION);
  }
}
