package io.mangacircus.contracts;

/**
 * Memory-pressure yield, sent by a launcher to the scraper it hosts.
 *
 * @param yield true: lanes stop at their next checkpoint and claim nothing; false: they may resume
 * @param reason why, for logs and {@code events.log}
 */
public record YieldRequest(boolean yield, String reason) implements Message {

  public static final int VERSION = 1;

  public YieldRequest {
    MessageFields.nonBlank(YieldRequest.class, "reason", reason);
  }

  public static YieldRequest fromJson(Object body) {
    return MessageJson.read(body, YieldRequest.class, VERSION);
  }
}
