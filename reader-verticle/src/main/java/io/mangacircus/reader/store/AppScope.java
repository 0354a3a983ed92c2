package io.mangacircus.reader.store;

import java.util.Optional;

/** What an app password may do: only read ({@code read}), or also move its user's reading positions. */
public enum AppScope {
  READ("read"),
  READ_PROGRESS("read+progress");

  private final String wire;

  AppScope(String wire) {
    this.wire = wire;
  }

  /** The name stored in {@code reader.db} and used in the API: {@code read} or {@code read+progress}. */
  public String wire() {
    return wire;
  }

  /** Whether an app password of this scope may move its user's reading position. */
  public boolean mayMoveProgress() {
    return this == READ_PROGRESS;
  }

  /** The scope named {@code wire}; empty for any other name. */
  public static Optional<AppScope> parse(String wire) {
    for (AppScope scope : values()) {
      if (scope.wire.equals(wire)) {
        return Optional.of(scope);
      }
    }
    return Optional.empty();
  }

  /** A scope as a store read it back; the table's CHECK keeps out any other value. */
  public static AppScope stored(String wire) {
    return parse(wire).orElseThrow(() -> new IllegalStateException("unknown app password scope " + wire));
  }
}
