package io.mangacircus.reader.library;

/**
 * Follows the sequence numbers of {@code mc.library.published} (numbered from 1 by each scraper instance) and tells
 * whether an event follows the last one, repeats one, or shows that some were missed: a gap, a first event that is not
 * number 1, or another scraper instance (docs/event-bus.md). Not thread-safe; the inventory calls it under its lock.
 */
public final class PublicationSequence {

  /** What an event means for the inventory. */
  public enum Verdict {
    /** The next one: apply it. */
    NEXT,
    /** Seen before (or older): applying it again changes nothing. */
    REPEATED,
    /** Something was missed: rescan. */
    MISSED
  }

  private String instance;
  private long last;

  /** Judges the event {@code seq} of {@code from} and records it as the last one seen. */
  public Verdict next(String from, long seq) {
    Verdict verdict;
    if (instance == null) {
      verdict = seq == 1 ? Verdict.NEXT : Verdict.MISSED;
    } else if (!instance.equals(from)) {
      verdict = Verdict.MISSED;
    } else if (seq <= last) {
      return Verdict.REPEATED;
    } else {
      verdict = seq == last + 1 ? Verdict.NEXT : Verdict.MISSED;
    }
    instance = from;
    last = seq;
    return verdict;
  }
}
