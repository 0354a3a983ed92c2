package io.mangacircus.contracts;

/**
 * Published on {@link Addresses#READER_SESSION_ENDED} by a reader whose user logged out, so that the other readers of
 * the cluster stop trusting that session from memory at once.
 *
 * @param from the publishing reader's instance id (a reader ignores its own publications)
 * @param tokenHash the SHA-256 (hex) of the ended session's token, as the sessions table keeps it; never the token
 */
public record SessionEnded(String from, String tokenHash) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public SessionEnded {
    MessageFields.nonBlank(SessionEnded.class, "from", from);
    MessageFields.atMost(SessionEnded.class, "from", from, 100);
    MessageFields.nonBlank(SessionEnded.class, "tokenHash", tokenHash);
    MessageFields.atMost(SessionEnded.class, "tokenHash", tokenHash, 128);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static SessionEnded fromJson(Object body) {
    return MessageJson.read(body, SessionEnded.class, VERSION);
  }
}
