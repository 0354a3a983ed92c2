package io.mangacircus.reader.shelves;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * One user's counts for one series card: chapters, read, unread and new since the visit's cutoff, and when the series
 * came into the library. A read mark of a chapter no longer in the library does not count. No Vert.x.
 *
 * @param chapters published chapters
 * @param read of them, those the user has read
 * @param unread the others
 * @param newSince unread chapters published after the visit's cutoff ({@link LibraryVisits}); 0 without a cutoff
 * @param addedAt when its first chapter was published (the series came into the library); null when unknown
 */
public record ReadingCounts(int chapters, int read, int unread, int newSince, Instant addedAt) {

  /**
   * @param published the series' chapters by id, each with when it was published ({@link Instant#EPOCH} when unknown)
   * @param readIds the chapters of the series the user has read
   * @param since the visit's cutoff, or null (first visit)
   */
  public static ReadingCounts of(Map<String, Instant> published, Set<String> readIds, Instant since) {
    int read = 0;
    int fresh = 0;
    for (Map.Entry<String, Instant> chapter : published.entrySet()) {
      Instant at = chapter.getValue();
      boolean isRead = readIds.contains(chapter.getKey());
      if (isRead) {
        read++;
      } else if (since != null && at != null && at.isAfter(since)) {
        fresh++;
      }
    }
    return new ReadingCounts(published.size(), read, published.size() - read, fresh, addedAt(published));
  }

  /**
   * When a series came into the library: its first chapter's publication; null when no chapter's time is known.
   *
   * @param published the series' chapters by id with when each was published ({@link Instant#EPOCH} when unknown), or
   *     null
   */
  public static Instant addedAt(Map<String, Instant> published) {
    if (published == null) {
      return null;
    }
    Instant added = null;
    for (Instant at : published.values()) {
      if (at != null && !Instant.EPOCH.equals(at) && (added == null || at.isBefore(added))) {
        added = at;
      }
    }
    return added;
  }

  /** Counts from the card alone, before the library's first scan has listed chapter ids: no new, no added time. */
  public static ReadingCounts estimated(int chapters, int readMarks) {
    int read = Math.min(chapters, readMarks);
    return new ReadingCounts(chapters, read, chapters - read, 0, null);
  }
}
