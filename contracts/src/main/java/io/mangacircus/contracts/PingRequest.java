package io.mangacircus.contracts;

/**
 * A liveness ping sent to {@link Addresses#READER_PING} or {@link Addresses#SCRAPER_PING}.
 *
 * @param from who asks, for the receiver's logs (for example {@code launcher} or {@code reader.health})
 */
public record PingRequest(String from) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public PingRequest {
    MessageFields.nonBlank(PingRequest.class, "from", from);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static PingRequest fromJson(Object body) {
    return MessageJson.read(body, PingRequest.class, VERSION);
  }
}
