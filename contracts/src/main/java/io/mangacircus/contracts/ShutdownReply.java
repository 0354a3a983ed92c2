package io.mangacircus.contracts;

/**
 * A launcher's answer to a {@link ShutdownRequest}.
 *
 * @param stopping true when this launcher's process now stops; false when it leaves the stop to the requester's own
 *     process (the pair request reached the launcher of the process that asked: one JVM runs both services)
 * @param node the answering launcher, {@code mode@host:pid}
 */
public record ShutdownReply(boolean stopping, String node) implements Message {

  public static final int VERSION = 1;

  public ShutdownReply {
    MessageFields.nonBlank(ShutdownReply.class, "node", node);
  }

  public static ShutdownReply fromJson(Object body) {
    return MessageJson.read(body, ShutdownReply.class, VERSION);
  }
}
