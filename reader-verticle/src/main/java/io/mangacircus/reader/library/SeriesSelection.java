package io.mangacircus.reader.library;

import java.time.Instant;
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
    return apply(library, times, new SeriesOrders());
  }

  /** {@link #apply(List, Map)} with the library's sorted orders kept in {@code orders} from one request to the next. */
  List<SeriesEntry> apply(List<SeriesEntry> library, Map<String, Map<String, Instant>> times, SeriesOrders orders) {
    java.util.Set<String> wanted = members == null ? null : new java.util.HashSet<>(members);
    List<SeriesEntry> chosen;
    if (wanted != null && sort == null) {
      Map<String, SeriesEntry> byId = new HashMap<>();
      library.stream().filter(s -> wanted.contains(s.id())).forEach(s -> byId.put(s.id(), s));
      chosen = members.stream().distinct().map(byId::get).filter(Objects::nonNull).toList();
    } else {
      // Sorted first, then chosen from: both sorts are stable over the title order, so a collection's members and the
      // titles a search finds come in the order they would have if sorted on their own.
      chosen = "updated".equals(sort) ? orders.byUpdated(library)
          : "added".equals(sort) && times != null ? orders.byAdded(library, times) : library;
      if (wanted != null) {
        chosen = chosen.stream().filter(s -> wanted.contains(s.id())).toList();
      }
    }
    if (!query.isEmpty()) {
      chosen = chosen.stream().filter(s -> s.title().toLowerCase(Locale.ROOT).contains(query)).toList();
    }
    return chosen;
  }
}
