package io.mangacircus.scraper.recovery;

/** What startup recovery concluded about one open chapter (docs/architecture.md §4). */
public enum RecoveryVerdict {
  /** The library already holds it with the matching fingerprint: advance the journal, never re-download. */
  COMPLETE,
  /** Work can go on: its staging matches (resume from the checkpoint) or the source still lists it. */
  STILL,
  /** The source positively says it no longer exists and nothing is staged: failed, reason {@code chapter_gone}. */
  GONE,
  /** Nothing can be concluded now (source unreachable, unreadable checkpoint): change nothing, try next pass. */
  UNKNOWN
}
