package io.mangacircus.reader.library;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Reads the published library ({@code data/library/<series>/<chapter>/chapter.json}) read-only, by the same rule as
 * page serving ({@link LibraryFiles}): what the rule refuses is neither listed nor counted nor searched, and is
 * reported as skipped with why. Hidden folders (staging) and plain files are passed over silently.
 */
public final class LibraryScanner {

  private final LibraryFiles files;

  public LibraryScanner(LibraryFiles files) {
    this.files = files;
  }

  /** Every series with at least one published chapter, by title, and everything skipped. Blocking. */
  public LibraryScan scan() {
    return scan(entry -> { });
  }

  /** {@link #scan()}, handing each listed series to {@code found} as soon as its folder has been read. */
  public LibraryScan scan(Consumer<SeriesEntry> found) {
    Path root = files.root();
    if (!Files.exists(root)) {
      return new LibraryScan(List.of(), List.of(), true);
    }
    List<SeriesEntry> series = new ArrayList<>();
    List<LibraryScan.Skipped> skipped = new ArrayList<>();
    Map<String, Set<String>> chapters = new HashMap<>();
    Map<String, Map<String, Instant>> published = new HashMap<>();
    // Chapter folder names repeat across series (chapter-0001...): kept once each, not once per series.
    Map<String, String> names = new HashMap<>();
    for (Path folder : files.entries(root, "library " + root)) {
      String id = folder.getFileName().toString();
      if (!LibraryFiles.validId(id)) {
        skipped.add(new LibraryScan.Skipped(id, "not a plain folder name"));
        continue;
      }
      LibraryFiles.Listing listing;
      try {
        listing = files.listing(id, false);
      } catch (LibraryFiles.NotFoundException e) {
        skipped.add(new LibraryScan.Skipped(id, e.reason()));
        continue;
      } catch (UncheckedIOException e) {
        skipped.add(new LibraryScan.Skipped(id, "cannot be read (" + e.getCause().getClass().getSimpleName() + ")"));
        continue;
      }
      skipped.addAll(listing.refused());
      if (!listing.chapters().isEmpty()) {
        SeriesEntry entry = entry(id, listing.chapters());
        series.add(entry);
        found.accept(entry);
        chapters.put(id, listing.chapters().stream().map(c -> names.computeIfAbsent(c.id(), n -> n))
            .collect(Collectors.toSet()));
        Map<String, Instant> times = new HashMap<>();
        listing.chapters().forEach(c -> times.put(names.computeIfAbsent(c.id(), n -> n),
            c.publishedAt() == null ? Instant.EPOCH : c.publishedAt()));
        published.put(id, Map.copyOf(times));
      }
    }
    series.sort(LibraryInventory.ORDER);
    return new LibraryScan(series, skipped, false, chapters, published);
  }

  /** The card of a series: its title is the first chapter's, as on the series page. */
  static SeriesEntry entry(String id, List<LibraryFiles.Chapter> chapters) {
    LibraryFiles.Chapter first = chapters.get(0);
    // A chapter without a publication time still counts; it just does not move "recently updated".
    Instant newest = chapters.stream().map(LibraryFiles.Chapter::publishedAt).filter(Objects::nonNull)
        .max(Instant::compareTo).orElse(Instant.EPOCH);
    return new SeriesEntry(id, first.seriesTitle(), first.source(), first.titleId(), chapters.size(), newest);
  }
}
