package io.mangacircus.scraper.source;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Picks one upload per chapter number when several scanlation groups uploaded the same number in the same language:
 * a downloadable upload before a scheduled or external one; among those, the first preferred group that has it, else
 * the first uploaded (earliest upload time; the listing's order breaks ties and decides when times are unknown). Never
 * keeps the same number twice; keeps reading order (the order each number first appears in).
 */
public final class GroupChoice {

  /**
   * One upload of a chapter.
   *
   * @param item what is kept when this upload is chosen
   * @param language its language
   * @param number its chapter number
   * @param groupIds the groups that uploaded it (a joint release names several)
   * @param uploadedAt when it was uploaded (publish time, else creation time), or null when unknown
   * @param downloadable whether its pages can be downloaded now
   */
  public record Upload<T>(T item, String language, String number, List<String> groupIds, Instant uploadedAt,
      boolean downloadable) {

    public Upload {
      groupIds = List.copyOf(groupIds);
    }
  }

  private GroupChoice() {
  }

  /** One upload per language and number, in reading order, by {@code preferredGroups} (may be empty). */
  public static <T> List<T> choose(List<Upload<T>> uploads, List<String> preferredGroups) {
    Map<String, List<Integer>> byNumber = new LinkedHashMap<>();
    for (int i = 0; i < uploads.size(); i++) {
      Upload<T> upload = uploads.get(i);
      byNumber.computeIfAbsent(upload.language() + "\u0000" + upload.number(), k -> new ArrayList<>()).add(i);
    }
    List<T> chosen = new ArrayList<>();
    for (List<Integer> candidates : byNumber.values()) {
      chosen.add(uploads.get(best(uploads, candidates, preferredGroups)).item());
    }
    return chosen;
  }

  private static <T> int best(List<Upload<T>> uploads, List<Integer> candidates, List<String> preferredGroups) {
    Comparator<Integer> order = Comparator
        .comparing((Integer i) -> uploads.get(i).downloadable() ? 0 : 1)
        .thenComparing(i -> preference(uploads.get(i), preferredGroups))
        .thenComparing(i -> uploads.get(i).uploadedAt(), Comparator.nullsLast(Comparator.naturalOrder()))
        .thenComparing(i -> i);
    return candidates.stream().min(order).orElseThrow();
  }

  /** The rank of the best preferred group among an upload's groups; past the list when none is preferred. */
  private static int preference(Upload<?> upload, List<String> preferredGroups) {
    int rank = preferredGroups.size();
    for (String group : upload.groupIds()) {
      int at = preferredGroups.indexOf(group);
      if (at >= 0 && at < rank) {
        rank = at;
      }
    }
    return rank;
  }
}
