package io.mangacircus.contracts;

/**
 * Published on {@link Addresses#READER_MERGES_CHANGED} by a reader whose admin merged or unmerged series, so that the
 * other readers of the cluster read the merges from the database again at once. It names no series: a receiver reads
 * them all.
 *
 * @param from the publishing reader's instance id (a reader ignores its own publications)
 */
public record SeriesMergesChanged(String from) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public SeriesMergesChanged {
    MessageFields.nonBlank(SeriesMergesChanged.class, "from", from);
    MessageFields.atMost(SeriesMergesChanged.class, "from", from, 100);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static SeriesMergesChanged fromJson(Object body) {
    return MessageJson.read(body, SeriesMergesChanged.class, VERSION);
  }
}
