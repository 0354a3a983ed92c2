package io.mangacircus.contracts;

/**
 * Published on {@link Addresses#LAUNCHER_MEMORY_YIELD} when the launcher of the scraper's process starts or ends a
 * memory-pressure yield.
 *
 * @param node the publishing process ({@code <mode>@<host>:<pid>})
 * @param yielding true: downloads pause at their next checkpoint; false: they may resume
 * @param reason the reading that decided it
 */
public record MemoryYieldChanged(String node, boolean yielding, String reason) implements Message {

  public static final int VERSION = 1;

  public MemoryYieldChanged {
    MessageFields.nonBlank(MemoryYieldChanged.class, "node", node);
    MessageFields.nonBlank(MemoryYieldChanged.class, "reason", reason);
  }

  public static MemoryYieldChanged fromJson(Object body) {
    return MessageJson.read(body, MemoryYieldChanged.class, VERSION);
  }
}
