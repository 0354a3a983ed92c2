package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * Published on {@link Addresses#READER_ACCOUNTS_CHANGED} by a reader that changed accounts, so that the other readers
 * of the cluster drop what they remember of them. It names no account: what a receiver does is the same for any.
 *
 * @param from the publishing reader's instance id (a reader ignores its own publications)
 * @param change what changed
 */
public record AccountsChanged(String from, Change change) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  /** What changed, and so what a receiving reader reads from the database again. */
  public enum Change {
    /**
     * A password set or reset, an account disabled or enabled, an app password revoked: every session and app password
     * is checked against the database again.
     */
    CREDENTIALS("credentials"),
    /** What accounts may see (libraries, age limit), or an account made: every account's access is read again. */
    ACCESS("access");

    private final String wire;

    Change(String wire) {
      this.wire = wire;
    }

    /** The name used in JSON. */
    @JsonValue
    public String wire() {
      return wire;
    }

    /** The change for its wire name; an {@link InvalidMessageException} for anything else. */
    @JsonCreator
    public static Change ofWire(String wire) {
      return Arrays.stream(values()).filter(c -> c.wire.equals(wire)).findFirst()
          .orElseThrow(() -> new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
              "AccountsChanged: field 'change' must be credentials or access, got '" + wire + "'"));
    }
  }

  public AccountsChanged {
    MessageFields.nonBlank(AccountsChanged.class, "from", from);
    MessageFields.atMost(AccountsChanged.class, "from", from, 100);
    MessageFields.required(AccountsChanged.class, "change", change);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static AccountsChanged fromJson(Object body) {
    return MessageJson.read(body, AccountsChanged.class, VERSION);
  }
}
