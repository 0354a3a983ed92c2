package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The reply to a {@link PingRequest}.
 *
 * @param service the answering service ({@code reader} or {@code scraper})
 * @param instance an id that changes on every deployment, so callers can see a redeploy
 * @param startedAtEpochMs when this deployment started, milliseconds since the epoch (field {@code startedAt})
 */
public record PingReply(String service, String instance, @JsonProperty("startedAt") long startedAtEpochMs) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public PingReply {
    MessageFields.nonBlank(PingReply.class, "service", service);
    MessageFields.nonBlank(PingReply.class, "instance", instance);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static PingReply fromJson(Object body) {
    return MessageJson.read(body, PingReply.class, VERSION);
  }
}
