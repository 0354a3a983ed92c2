package io.mangacircus.reader.library;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

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
    Path root = files.root();
    if (!Files.exists(root)) {
      return new LibraryScan(List.of(), List.of(), true);
    }
    List<SeriesEntry> series = new ArrayList<>();
    List<LibraryScan.Skipped> skipped = new ArrayList<>();
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
        series.add(entry(id, listing.chapters()));
      }
    }
    series.sort(Comparator.comparing(SeriesEntry::title, String.CASE_INSENSITIVE_ORDER).thenComparing(SeriesEntry::id));
    return new LibraryScan(series, skipped, false);
  }

  /** The card of a series: its title is the first chapter's, as on the series page. */
  private static SeriesEntry entry(String id, List<LibraryFiles.Chapter> chapters) {
    LibraryFiles.Chapter first = chapters.get(0);
    // A chapter without a publication time still counts; it just does not move "recently updated".
    Instant newest = chapters.stream().map(LibraryFiles.Chapter::publishedAt).filter(Objects::nonNull)
        .max(Instant::compareTo).orElse(Instant.EPOCH);
    return new SeriesEntry(id, first.seriesTitle(), first.source(), first.titleId(), chapters.size(), newest);
  }
}
