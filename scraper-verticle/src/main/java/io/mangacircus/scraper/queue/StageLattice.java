package io.mangacircus.scraper.queue;

/** Guards chapter stage writes: a stage may only move forward; staying put is allowed, going back never. */
public final class StageLattice {

  private StageLattice() {
  }

  /** Whether a chapter at {@code current} may be recorded at {@code next}. */
  public static boolean allows(ChapterStage current, ChapterStage next) {
    if (current.terminal()) {
      return current == next;
    }
    return next.rank() >= current.rank();
  }
}
