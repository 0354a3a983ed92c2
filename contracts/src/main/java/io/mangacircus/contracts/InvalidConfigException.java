package io.mangacircus.contracts;

/** Thrown when a configuration value is missing or out of range; it names the offending key. */
public final class InvalidConfigException extends RuntimeException {

  private final String key;
  private final String problem;

  public InvalidConfigException(String key, String problem) {
    super("invalid configuration: " + key + ": " + problem);
    this.key = key;
    this.problem = problem;
  }

  /** What is wrong with the value, without the key. */
  public String problem() {
    return problem;
  }

  /** The dotted key, for example {@code supervision.pingIntervalMs}. */
  public String key() {
    return key;
  }
}
