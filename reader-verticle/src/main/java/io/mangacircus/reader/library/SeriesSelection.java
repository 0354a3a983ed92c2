package io.mangacircus.reader.library;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Which series {@code GET /api/series} lists and in what order (before paging): a collection's members or the whole
 * library, a title search, and the sort (docs/api.md "Library"). No Vert.x.
 *
 * @param query title contains, lowercased; empty for all
 * @param sort {@code title}, {@code updated} (newest chapter first) or {@code added} (newest series first); null:
 *     the collection's own order with {@code members}, else title
 * @param members a collection's series ids in its order, or null for the whole library
 */
public record SeriesSelection(String query, String sort, List<String> members) {

  /** The sorts a request may ask for. */
  public static final List<String> SORTS = List.of("title", "updated", "added");

  /**
   * @param library the library list in title order
   * @param times each series' chapters with when each was published, or null before the first scan listed them (then
   *     {@code added} leaves the title order)
   */
  public List<SeriesEntry> apply(List<SeriesEntry> library, Map<String, Map<String, Instant>> times) {
    List<SeriesEntry> chosen = library;
    if (members != null) {
      java.util.Set<String> wanted = new java.util.HashSet<>(members);
      if (sort == null) {
        Map<String, SeriesEntry> byId = new HashMap<>();
        library.stream().filter(s -> wanted.contains(s.id())).forEach(s -> byId.put(s.id(), s));
        chosen = members.stream().distinct().map(byId::get).filter(Objects::nonNull).toList();
      } else {
        chosen = library.stream().filter(s -> wanted.contains(s.id())).toList();
      }
    }
    if (!query.isEmpty()) {
      chosen = chosen.stream().filter(s -> s.title().toLowerCase(Locale.ROOT).contains(query)).toList();
    }
    if ("updated".equals(sort)) {
      chosen = chosen.stream().sorted(Comparator.comparing(SeriesEntry::updatedAt).reversed()).toList();
    } else if ("added".equals(sort) && times != null) {
      Map<String, Instant> added = new HashMap<>();
      chosen.forEach(s -> added.put(s.id(), addedAt(times.get(s.id()))));
      // Stable: series with the same or no time keep the title order, those with no time last.
      chosen = chosen.stream().sorted(Comparator.comparing((SeriesEntry s) -> added.get(s.id()),
          Comparator.nullsLast(Comparator.reverseOrder()))).toList();
    }
    return chosen;
  }

  /** When a series came into the library: its first chapter's publication (as {@code addedAt}); null when unknown. */
  static Instant addedAt(Map<String, Instant> chapters) {
    if (chapters == null) {
      return null;
    }
    return chapters.values().stream().filter(at -> at != null && !Instant.EPOCH.equals(at)).min(Instant::compareTo)
        .orElse(null);
  }
}
