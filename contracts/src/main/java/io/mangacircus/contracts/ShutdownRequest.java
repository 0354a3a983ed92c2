package io.mangacircus.contracts;

/**
 * Asks a launcher to stop its process gracefully, exactly as SIGTERM does.
 *
 * @param requestedBy who asked, for the launcher's log (for example {@code 'admin' over HTTP})
 */
public record ShutdownRequest(String requestedBy) implements Message {

  public static final int VERSION = 1;

  public ShutdownRequest {
    MessageFields.nonBlank(ShutdownRequest.class, "requestedBy", requestedBy);
  }

  public static ShutdownRequest fromJson(Object body) {
    return MessageJson.read(body, ShutdownRequest.class, VERSION);
  }
}
