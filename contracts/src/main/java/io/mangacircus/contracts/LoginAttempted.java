package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Instant;
import java.util.Arrays;

/**
 * Published on {@link Addresses#READER_LOGIN_ATTEMPTED} by a reader for each step of a guess it counts (a login, an
 * app password, the admin token), so that every reader's login throttle counts the guesses made at all of them.
 *
 * @param from the publishing reader's instance id (a reader ignores its own publications)
 * @param client the client's address as the reader saw it (behind a trusted proxy, the forwarded one)
 * @param user the user name tried, as typed (the throttle's own names for the admin token and API keys start with a
 *     NUL character)
 * @param at when the attempt was counted, by the publishing reader's clock: a later step of the same attempt names the
 *     same instant
 * @param step what happened to the attempt
 */
public record LoginAttempted(String from, String client, String user, Instant at, Step step) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  /** A step of one counted attempt. */
  public enum Step {
    /** Counted as a failure from {@code at} on, until a later step says otherwise. */
    BEGUN("begun"),
    /** It succeeded: not counted, and that client's failures for that user are forgotten. */
    SUCCEEDED("succeeded"),
    /** It could not be checked: not counted. */
    ABANDONED("abandoned");

    private final String wire;

    Step(String wire) {
      this.wire = wire;
    }

    /** The name used in JSON. */
    @JsonValue
    public String wire() {
      return wire;
    }

    /** The step for its wire name; an {@link InvalidMessageException} for anything else. */
    @JsonCreator
    public static Step ofWire(String wire) {
      return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst()
          .orElseThrow(() -> new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
              "LoginAttempted: field 'step' must be begun, succeeded or abandoned, got '" + wire + "'"));
    }
  }

  public LoginAttempted {
    MessageFields.nonBlank(LoginAttempted.class, "from", from);
    MessageFields.atMost(LoginAttempted.class, "from", from, 100);
    MessageFields.nonBlank(LoginAttempted.class, "client", client);
    MessageFields.atMost(LoginAttempted.class, "client", client, 200);
    MessageFields.required(LoginAttempted.class, "user", user);
    MessageFields.atMost(LoginAttempted.class, "user", user, 1000);
    MessageFields.required(LoginAttempted.class, "at", at);
    MessageFields.required(LoginAttempted.class, "step", step);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LoginAttempted fromJson(Object body) {
    return MessageJson.read(body, LoginAttempted.class, VERSION);
  }
}
