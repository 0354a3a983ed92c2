package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * The reply to a {@link PingRequest}.
 *
 * @param service the answering service ({@code reader} or {@code scraper})
 * @param instance an id that changes on every deployment, so callers can see a redeploy
 * @param startedAtEpochMs when this deployment started, milliseconds since the epoch
 */
public record PingReply(String service, String instance, long startedAtEpochMs) {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("service", service).put("instance", instance)
        .put("startedAt", startedAtEpochMs);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static PingReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "PingReply");
    MessageFields.requireVersion(json, "PingReply", VERSION);
    return new PingReply(MessageFields.string(json, "PingReply", "service"),
        MessageFields.string(json, "PingReply", "instance"),
        MessageFields.number(json, "PingReply", "startedAt"));
  }
}
