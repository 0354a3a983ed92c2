package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Asks a launcher to deploy a {@code blocked} service again ({@link Addresses#serviceStartOf(String)}).
 *
 * @param service the service's name ({@code reader} or {@code scraper})
 * @param from who asks, for the launcher's log (for example {@code admin:alice})
 */
public record ServiceStartRequest(String service, String from) {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("service", service).put("from", from);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static ServiceStartRequest fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "ServiceStartRequest");
    MessageFields.requireVersion(json, "ServiceStartRequest", VERSION);
    return new ServiceStartRequest(MessageFields.string(json, "ServiceStartRequest", "service"),
        MessageFields.string(json, "ServiceStartRequest", "from"));
  }
}
