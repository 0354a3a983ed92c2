package io.mangacircus.reader.library;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one scan of the library found: the series it lists and every series or chapter folder it skipped, with why.
 *
 * @param series every series with at least one published chapter, by title
 * @param skipped every entry the library's rule refused, each once, by name
 * @param folderMissing the library folder itself does not exist (a fresh install, or a disk that is not mounted)
 * @param chapters by series id, the chapter folders listed (so that a publication event counts a chapter once)
 * @param published by series id, when each listed chapter was published (for the per-user reading summary); a
 *     chapter missing here counts as published at an unknown time
 */
public record LibraryScan(List<SeriesEntry> series, List<Skipped> skipped, boolean folderMissing,
    Map<String, Set<String>> chapters, Map<String, Map<String, java.time.Instant>> published) {

  public LibraryScan {
    series = List.copyOf(series);
    skipped = List.copyOf(skipped);
    chapters = Map.copyOf(chapters);
    published = Map.copyOf(published);
  }

  /** A scan that did not record publication times. */
  public LibraryScan(List<SeriesEntry> series, List<Skipped> skipped, boolean folderMissing,
      Map<String, Set<String>> chapters) {
    this(series, skipped, folderMissing, chapters, Map.of());
  }

  /** A scan that did not record chapter folders (every publication event then counts as new). */
  public LibraryScan(List<SeriesEntry> series, List<Skipped> skipped, boolean folderMissing) {
    this(series, skipped, folderMissing, Map.of());
  }

  /**
   * A series or chapter folder the library does not show.
   *
   * @param entry the folder's name in the library: {@code evilseries} or {@code foo/chapter-0003}
   * @param reason why, e.g. {@code resolves outside the library} or {@code chapter.json is not valid JSON}
   */
  public record Skipped(String entry, String reason) {
    public Skipped {
      // Folder names come from whoever wrote the disk: no control characters reach a log line or a page.
      entry = entry.replaceAll("\\p{Cntrl}", "?");
    }

    @Override
    public String toString() {
      return entry + ": " + reason;
    }
  }
}
