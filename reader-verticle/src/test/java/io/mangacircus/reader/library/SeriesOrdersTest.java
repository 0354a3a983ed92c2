package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SeriesOrdersTest {

  private static final Instant T = Instant.parse("2026-11-20T10:00:00Z");

  @Test
  void aSortedOrderIsKeptForTheListItWasMadeFromAndMadeAgainForANewList() {
    SeriesOrders orders = new SeriesOrders();
    List<SeriesEntry> library = List.of(entry("alpha", 1), entry("bravo", 3), entry("charlie", 2));
    Map<String, Map<String, Instant>> times = Map.of("alpha", Map.of("c1", T.plusSeconds(30)),
        "bravo", Map.of("c1", T.plusSeconds(10)), "charlie", Map.of("c1", T.plusSeconds(20)));

    List<SeriesEntry> updated = orders.byUpdated(library);
    List<SeriesEntry> added = orders.byAdded(library, times);

    assertThat(updated).extracting(SeriesEntry::id).containsExactly("bravo", "charlie", "alpha");
    assertThat(added).extracting(SeriesEntry::id).containsExactly("alpha", "charlie", "bravo");
    assertThat(orders.byUpdated(library)).isSameAs(updated);
    assertThat(orders.byAdded(library, times)).isSameAs(added);

    // A publication: the inventory hands out a new list (bravo's newest chapter is older than alpha's new one).
    List<SeriesEntry> next = List.of(entry("alpha", 9), entry("bravo", 3), entry("charlie", 2), entry("delta", 4));
    Map<String, Map<String, Instant>> nextTimes = new HashMap<>(times);
    nextTimes.put("delta", Map.of("c1", T.plusSeconds(40)));

    assertThat(orders.byUpdated(next)).extracting(SeriesEntry::id).containsExactly("alpha", "delta", "bravo", "charlie");
    assertThat(orders.byAdded(next, nextTimes)).extracting(SeriesEntry::id)
        .containsExactly("delta", "alpha", "charlie", "bravo");
  }

  @Test
  void choosingFromTheSortedLibraryGivesWhatSortingTheChosenSeriesGives() {
    Random random = new Random(18);
    SeriesOrders orders = new SeriesOrders();
    for (int round = 0; round < 200; round++) {
      List<SeriesEntry> library = new ArrayList<>();
      Map<String, Map<String, Instant>> times = new HashMap<>();
      int size = random.nextInt(40);
      for (int i = 0; i < size; i++) {
        String id = String.format("s%03d", i);
        library.add(new SeriesEntry(id, (random.nextBoolean() ? "Red " : "Blue ") + id, "demo", id, 1,
            T.plusSeconds(random.nextInt(5))));   // few distinct times: ties keep the title order
        Map<String, Instant> chapters = new HashMap<>();
        for (int c = random.nextInt(4); c > 0; c--) {
          int pick = random.nextInt(6);
          chapters.put("c" + c, pick == 0 ? Instant.EPOCH : T.plusSeconds(pick));
        }
        if (random.nextInt(8) > 0) {
          times.put(id, chapters);
        }
      }
      List<SeriesEntry> handedOut = List.copyOf(library);   // one list, asked for several selections
      for (int ask = 0; ask < 4; ask++) {
        List<String> members = random.nextBoolean() ? null
            : library.stream().map(SeriesEntry::id).filter(id -> random.nextInt(3) == 0).toList();
        String query = List.of("", "red", "blue s00", "zzz").get(random.nextInt(4));
        for (String sort : List.of("title", "updated", "added")) {
          SeriesSelection selection = new SeriesSelection(query, sort, members);

          List<SeriesEntry> chosen = selection.apply(handedOut, times, orders);

          assertThat(chosen).as("round %d, sort %s", round, sort)
              .isEqualTo(chosenThenSorted(library, times, selection));
        }
      }
    }
  }

  /** The selection as it was made before orders were kept: the chosen series first, then sorted. */
  private static List<SeriesEntry> chosenThenSorted(List<SeriesEntry> library, Map<String, Map<String, Instant>> times,
      SeriesSelection selection) {
    List<SeriesEntry> chosen = library;
    if (selection.members() != null) {
      Set<String> wanted = new HashSet<>(selection.members());
      chosen = chosen.stream().filter(s -> wanted.contains(s.id())).toList();
    }
    chosen = chosen.stream().filter(s -> s.title().toLowerCase(Locale.ROOT).contains(selection.query())).toList();
    if ("updated".equals(selection.sort())) {
      return chosen.stream().sorted(Comparator.comparing(SeriesEntry::updatedAt).reversed()).toList();
    }
    if ("added".equals(selection.sort())) {
      return chosen.stream().sorted(Comparator.comparing((SeriesEntry s) -> io.mangacircus.reader.shelves.ReadingCounts.addedAt(times.get(s.id())),
          Comparator.nullsLast(Comparator.reverseOrder()))).toList();
    }
    return chosen;
  }

  private static SeriesEntry entry(String id, int hour) {
    return new SeriesEntry(id, id, "demo", id, 1, T.plusSeconds(3600L * hour));
  }
}
