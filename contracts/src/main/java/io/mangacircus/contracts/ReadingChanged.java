package io.mangacircus.contracts;

/**
 * Published on {@link Addresses#READER_READING_CHANGED} by a reader that saved a user's reading (a position, a chapter
 * marked read, a library visit), so that the other readers of the cluster drop what they keep of it at once.
 *
 * @param from the publishing reader's instance id (a reader ignores its own publications)
 * @param userId the user whose reading changed
 */
public record ReadingChanged(String from, long userId) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public ReadingChanged {
    MessageFields.nonBlank(ReadingChanged.class, "from", from);
    MessageFields.atMost(ReadingChanged.class, "from", from, 100);
    MessageFields.within(ReadingChanged.class, "userId", userId, 1, Long.MAX_VALUE);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static ReadingChanged fromJson(Object body) {
    return MessageJson.read(body, ReadingChanged.class, VERSION);
  }
}
