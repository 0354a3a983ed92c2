package io.mangacircus.contracts;

/**
 * Asks a launcher to deploy a {@code blocked} service again ({@link Addresses#serviceStartOf(String)}).
 *
 * @param service the service's name ({@code reader} or {@code scraper})
 * @param from who asks, for the launcher's log (for example {@code admin:alice})
 */
public record ServiceStartRequest(String service, String from) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public ServiceStartRequest {
    MessageFields.nonBlank(ServiceStartRequest.class, "service", service);
    MessageFields.nonBlank(ServiceStartRequest.class, "from", from);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static ServiceStartRequest fromJson(Object body) {
    return MessageJson.read(body, ServiceStartRequest.class, VERSION);
  }
}
