package io.mangacircus.reader.trackers;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/** A tracker token in memory: its text comes out only through {@link #reveal()}, never through toString. */
public final class Secret {

  private final String value;

  public Secret(String value) {
    Objects.requireNonNull(value, "a secret's value");
    if (value.isEmpty()) {
      throw new IllegalArgumentException("a secret is not empty");
    }
    this.value = value;
  }

  /** The token itself, for the one place that sends it to its tracker or seals it. */
  public String reveal() {
    return value;
  }

  /** Constant time, so comparing a presented token with a stored one tells nothing by its duration. */
  @Override
  public boolean equals(Object other) {
    return other instanceof Secret secret && MessageDigest.isEqual(
        value.getBytes(StandardCharsets.UTF_8), secret.value.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public int hashCode() {
    // One bucket for all: a hash of the token would be a (weak) fingerprint of it wherever hashes are shown.
    return 0;
  }

  /** Safe in logs and exception messages: it never shows the token, not even its length. */
  @Override
  public String toString() {
    return "Secret[****]";
  }
}
