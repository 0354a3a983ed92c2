package io.mangacircus.contracts;

/** Thrown when a configuration value is missing or out of range; it names the offending key. */
public final class InvalidConfigException extends RuntimeException {

  private final String key;

  public InvalidConfigException(String key, String problem) {
    super("invalid configuration: " + key + ": " + problem);
    this.key = key;
  }

  /** The dotted key, for example {@code supervision.pingIntervalMs}. */
  public String key() {
    return key;
  }
}
