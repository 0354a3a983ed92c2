package io.mangacircus.reader.library;

import java.util.ArrayList;
import java.util.List;

/**
 * The series a first scan (one with no list to show meanwhile) has found so far, served sorted and marked partial
 * rather than an empty list. Not thread-safe: the inventory guards it with its own lock.
 */
final class FirstScanFinds {

  /** The series found so far, in the order found; null when no such scan runs. */
  private List<SeriesEntry> found;
  /** {@link #found} in list order, as last served: sorted again only when more were found. */
  private List<SeriesEntry> sorted = List.of();

  /** A scan starts: it collects what it finds only when {@code collect} (a rescan keeps serving the last list). */
  void start(boolean collect) {
    found = collect ? new ArrayList<>() : null;
    sorted = List.of();
  }

  /** The scan ended: nothing is collected any more. */
  void stop() {
    found = null;
    sorted = List.of();
  }

  /** Whether a first scan is collecting what it finds. */
  boolean collecting() {
    return found != null;
  }

  /** Whether a first scan has found any series yet. */
  boolean any() {
    return found != null && !found.isEmpty();
  }

  /** Counts a series the scan found; false when no first scan is collecting. */
  boolean add(SeriesEntry entry) {
    if (found == null) {
      return false;
    }
    found.add(entry);
    return true;
  }

  /** What was found so far, in {@link LibraryInventory#ORDER}. */
  List<SeriesEntry> sorted() {
    if (sorted.size() != found.size()) {
      List<SeriesEntry> list = new ArrayList<>(found);
      list.sort(LibraryInventory.ORDER);
      sorted = List.copyOf(list);
    }
    return sorted;
  }
}
