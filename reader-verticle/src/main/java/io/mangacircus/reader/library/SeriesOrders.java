package io.mangacircus.reader.library;

import io.mangacircus.reader.shelves.ReadingCounts;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The library list sorted by {@code updated} and by {@code added}, each kept for the list it was sorted from: the
 * inventory hands out a new list after every scan and publication (and its chapter times change only with it), so a
 * kept order is never older than the list a request holds, and 10,000 series are sorted once per change, not for every
 * page of the grid and every shelf. Both sorts are stable over the list's title order. Thread-safe.
 */
final class SeriesOrders {

  /** An order and the list (by identity) it was made from. */
  private record Kept(List<SeriesEntry> library, List<SeriesEntry> ordered) {
  }

  private volatile Kept updated;
  private volatile Kept added;

  /** Newest chapter first; series with the same time keep the title order. */
  List<SeriesEntry> byUpdated(List<SeriesEntry> library) {
    Kept kept = updated;
    if (kept == null || kept.library() != library) {
      kept = new Kept(library, library.stream().sorted(Comparator.comparing(SeriesEntry::updatedAt).reversed())
          .toList());
      updated = kept;
    }
    return kept.ordered();
  }

  /**
   * Newest series first, by when its first chapter was published ({@link ReadingCounts#addedAt}); series with the same or no time
   * keep the title order, those with no time last.
   *
   * @param times each series' chapters with when each was published, as the inventory had them with {@code library}
   */
  List<SeriesEntry> byAdded(List<SeriesEntry> library, Map<String, Map<String, Instant>> times) {
    Kept kept = added;
    if (kept == null || kept.library() != library) {
      Map<String, Instant> at = new HashMap<>(library.size() * 2);
      library.forEach(s -> at.put(s.id(), ReadingCounts.addedAt(times.get(s.id()))));
      kept = new Kept(library, library.stream().sorted(Comparator.comparing((SeriesEntry s) -> at.get(s.id()),
          Comparator.nullsLast(Comparator.reverseOrder()))).toList());
      added = kept;
    }
    return kept.ordered();
  }
}
