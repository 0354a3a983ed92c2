package io.mangacircus.scraper.queue;

/**
 * One chapter of a job as the queue records it.
 *
 * @param id the source's chapter id
 * @param number chapter number as the source writes it ("12", "12.5")
 * @param title chapter title, may be empty
 * @param stage where it is in the stage lattice
 * @param pages page count of its manifest, 0 until known
 * @param fingerprint sha-256 of source, title, chapter and page manifest; null until fetching starts
 * @param reason why it failed, or null
 */
public record ChapterEntry(String id, String number, String title, ChapterStage stage, int pages, String fingerprint,
    String reason) {

  /** A chapter nobody has started. */
  public static ChapterEntry planned(String id, String number, String title) {
    return new ChapterEntry(id, number, title == null ? "" : title, ChapterStage.PLANNED, 0, null, null);
  }

  /** A chapter the source lists but offers nothing to download for yet ({@code scheduled} or {@code external}). */
  public static ChapterEntry awaitingSource(String id, String number, String title, ChapterStage stage, String why) {
    if (!stage.awaitsSource()) {
      throw new IllegalArgumentException(stage.wire() + " is not a stage of a chapter awaiting its source");
    }
    return new ChapterEntry(id, number, title == null ? "" : title, stage, 0, null, why);
  }

  public ChapterEntry withStage(ChapterStage next, int pageCount, String chapterFingerprint, String why) {
    return new ChapterEntry(id, number, title, next, pageCount, chapterFingerprint, why);
  }
}
