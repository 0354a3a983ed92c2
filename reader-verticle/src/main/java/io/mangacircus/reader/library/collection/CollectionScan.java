package io.mangacircus.reader.library.collection;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one scan of a collection found: its series and books, what it could not read, and how much work it took.
 *
 * @param finishedAt when the scan ended, from the scanner's clock
 * @param series the series in natural order of their titles
 * @param unreadable items not served, by path
 * @param archivesOpened archives this scan opened and read (a rescan opens only new and changed ones)
 * @param archivesReused archives whose previous result was kept because their path, size and mtime did not change
 */
public record CollectionScan(Instant finishedAt, List<CollectionSeries> series, List<UnreadableItem> unreadable,
    int archivesOpened, int archivesReused) {

  public CollectionScan {
    Objects.requireNonNull(finishedAt, "finishedAt");
    series = List.copyOf(series);
    unreadable = List.copyOf(unreadable);
  }

  /** The "previous scan" of a collection never scanned: nothing to reuse. */
  public static CollectionScan none() {
    return new CollectionScan(Instant.EPOCH, List.of(), List.of(), 0, 0);
  }

  /** Every book of every series, in series then book order. */
  public List<CollectionBook> books() {
    return series.stream().flatMap(s -> s.books().stream()).toList();
  }
}
