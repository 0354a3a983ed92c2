package io.mangacircus.reader.access;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Which series an admin merged into which other (docs/libraries.md, "Merging series"), and whether a new merge is
 * allowed. Merges are one level deep: a series merged into another has none merged into it, and a series others are
 * merged into is merged into none, so a merged series' target is always a series shown on its own. Kept in memory,
 * loaded at start from the reader's database, changed with each admin change and read again when another reader's admin
 * changed them; no Vert.x here.
 */
public final class SeriesMerges {

  /** Why a merge is refused: the HTTP status that says so and a sentence for the admin. */
  public record Refusal(int status, String message) {
  }

  /** Merged series id to the id of the series it was merged into. */
  private final Map<String, String> into = new TreeMap<>();

  /** @param stored the merges as kept, merged series id to target id */
  public SeriesMerges(Map<String, String> stored) {
    into.putAll(stored);
  }

  /** No merges. */
  public static SeriesMerges none() {
    return new SeriesMerges(Map.of());
  }

  /** Whether there is any merge at all (so that lists can skip the look-ups). */
  public synchronized boolean any() {
    return !into.isEmpty();
  }

  /** The series {@code seriesId} was merged into, if it was. */
  public synchronized Optional<String> mergedInto(String seriesId) {
    return Optional.ofNullable(into.get(seriesId));
  }

  /** The series merged into {@code target}, by id. */
  public synchronized List<String> parts(String target) {
    return into.entrySet().stream().filter(e -> e.getValue().equals(target)).map(Map.Entry::getKey).toList();
  }

  /** Every merge, merged series id to target id, by merged id. */
  public synchronized Map<String, String> all() {
    return new TreeMap<>(into);
  }

  /**
   * Why merging {@code source} into {@code target} is refused; empty when it is allowed (merging it again into the same
   * target is allowed and changes nothing).
   *
   * @param listed whether the library lists a series id (for the admin, who sees every series)
   */
  public synchronized Optional<Refusal> refusal(String source, String target, Predicate<String> listed) {
    if (!listed.test(source)) {
      return refused(404, "no series " + source);
    }
    if (target == null || target.isBlank()) {
      return refused(400, "send {\"into\": \"<series id>\"}: the id of the series to merge " + source + " into");
    }
    if (!listed.test(target)) {
      return refused(404, "no series " + target + " to merge " + source + " into");
    }
    if (source.equals(target)) {
      return refused(400, "a series cannot be merged into itself");
    }
    String already = into.get(source);
    if (already != null && !already.equals(target)) {
      return refused(400, source + " is already merged into " + already + "; unmerge it first");
    }
    String targetsTarget = into.get(target);
    if (targetsTarget != null) {
      return refused(400, target + " is itself merged into " + targetsTarget + "; merge into " + targetsTarget
          + " instead (merges are one level deep)");
    }
    List<String> sourceParts = parts(source);
    if (!sourceParts.isEmpty()) {
      return refused(400, "series are merged into " + source + " (" + String.join(", ", sourceParts)
          + "); unmerge them first (merges are one level deep)");
    }
    return Optional.empty();
  }

  /** Records an allowed merge ({@link #refusal} said none). */
  public synchronized void merged(String source, String target) {
    into.put(source, target);
  }

  /** Undoes a merge; false when {@code source} was merged into nothing. */
  public synchronized boolean unmerged(String source) {
    return into.remove(source) != null;
  }

  /** Replaces every merge with those stored now (another reader changed them). */
  public synchronized void replaceAll(Map<String, String> stored) {
    into.clear();
    into.putAll(stored);
  }

  private static Optional<Refusal> refused(int status, String message) {
    return Optional.of(new Refusal(status, message));
  }
}
