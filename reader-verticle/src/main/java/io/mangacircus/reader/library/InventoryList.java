package io.mangacircus.reader.library;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.contracts.rating.SeriesRating;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The inventory's list: the listed series in {@link LibraryInventory#ORDER}, and when each of their chapters was
 * published; replaced whole by a completed scan, grown by publications without a scan. Not thread-safe: the inventory
 * guards it with its own lock.
 */
final class InventoryList {

  private List<SeriesEntry> series = List.of();
  /**
   * When each chapter was published, by series id then chapter id, as the last scan and later publications found
   * them (its keys are the chapter folders counted: one map for both, 100,000 chapters are a lot of entries); null
   * before the first scan.
   */
  private Map<String, Map<String, Instant>> chapterTimes;
  /** The listed series by id (so that a publication finds its series' place without going through the list). */
  private Map<String, SeriesEntry> byId = Map.of();

  /** The listed series, an immutable list. */
  List<SeriesEntry> series() {
    return series;
  }

  /** A seeded list's series by id, made when first asked (a scan's list has {@link #byId}). */
  private List<SeriesEntry> indexed;
  private Map<String, SeriesEntry> index;

  /** The listed series with this id, or null. */
  SeriesEntry entry(String id) {
    SeriesEntry entry = byId.get(id);
    if (entry != null || counted()) {
      return entry;
    }
    if (indexed != series) {
      index = new HashMap<>();
      series.forEach(e -> index.put(e.id(), e));
      indexed = series;
    }
    return index.get(id);
  }

  /** Starts from a previous inventory's series (which has no chapter ids: nothing is counted until a scan). */
  void seed(List<SeriesEntry> previous) {
    series = previous;
  }

  /** Whether a scan of this process completed, so that chapters are counted by id. */
  boolean counted() {
    return chapterTimes != null;
  }

  /** A view of {@link #chapterTimes}, not a copy (10,000 series per request); null before the first scan. */
  Map<String, Map<String, Instant>> chapterTimes() {
    // The map is concurrent and its values are immutable.
    return chapterTimes == null ? null : Collections.unmodifiableMap(chapterTimes);
  }

  /** The list of a completed scan in place of the last one, its chapters counted. */
  void replace(LibraryScan found) {
    series = found.series();
    chapterTimes = new ConcurrentHashMap<>();
    found.chapters().forEach((id, chapters) -> {
      Map<String, Instant> known = found.published().getOrDefault(id, Map.of());
      if (known.size() == chapters.size() && known.keySet().containsAll(chapters)) {
        chapterTimes.put(id, Map.copyOf(known));   // the scan's own immutable map: kept as it is, not rebuilt
        return;
      }
      Map<String, Instant> times = new HashMap<>();
      chapters.forEach(c -> times.put(c, known.getOrDefault(c, Instant.EPOCH)));
      chapterTimes.put(id, Map.copyOf(times));
    });
    byId = new HashMap<>();
    series.forEach(e -> byId.put(e.id(), e));
  }

  /**
   * Adds the chapters not counted yet to the list (call only once {@link #counted}): each series keeps its place (its
   * title does not change) or a new one is put in its place by {@link LibraryInventory#ORDER}; the list is copied
   * once for all of them, never sorted again.
   *
   * @return whether any was added
   */
  boolean addAll(List<LibraryFiles.Chapter> chapters) {
    List<SeriesEntry> next = null;
    for (LibraryFiles.Chapter chapter : chapters) {
      Map<String, Instant> known = chapterTimes.getOrDefault(chapter.seriesId(), Map.of());
      if (known.containsKey(chapter.id())) {
        continue;
      }
      Instant at = chapter.publishedAt() == null ? Instant.EPOCH : chapter.publishedAt();
      Map<String, Instant> times = new HashMap<>(known);
      times.put(chapter.id(), at);
      chapterTimes.put(chapter.seriesId(), Map.copyOf(times));
      if (next == null) {
        next = new ArrayList<>(series);
      }
      SeriesEntry old = byId.get(chapter.seriesId());
      SeriesEntry entry;
      if (old == null) {
        entry = new SeriesEntry(chapter.seriesId(), chapter.seriesTitle(), chapter.source(), chapter.titleId(), 1, at,
            SeriesEntry.DOWNLOADS, SeriesRating.decide(null, chapter.sourceRating(), null).rating());
        int place = Collections.binarySearch(next, entry, LibraryInventory.ORDER);
        next.add(place < 0 ? -place - 1 : place, entry);
      } else {
        entry = new SeriesEntry(old.id(), old.title(), old.source(), old.titleId(), old.chapters() + 1,
            at.isAfter(old.updatedAt()) ? at : old.updatedAt(), old.library(), rating(old, chapter, at));
        int place = Collections.binarySearch(next, old, LibraryInventory.ORDER);
        next.set(place >= 0 ? place : next.indexOf(old), entry);
      }
      byId.put(entry.id(), entry);
    }
    if (next == null) {
      return false;
    }
    series = List.copyOf(next);
    return true;
  }

  /**
   * A series' rating once {@code chapter} (published {@code at}) is added, as a scan would decide it
   * ({@link LibraryScanner#sourceRating}): a rated chapter newer than every chapter before it brings its source's rating
   * (the source rated the title again), a rated one of a series nothing rated yet rates it; otherwise it stays.
   */
  private static AgeRating rating(SeriesEntry old, LibraryFiles.Chapter chapter, Instant at) {
    AgeRating source = chapter.sourceRating();
    if (!source.rated() || old.rating().rated() && at.isBefore(old.updatedAt())) {
      return old.rating();
    }
    return SeriesRating.decide(null, source, null).rating();
  }
}
