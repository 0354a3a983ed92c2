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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Reads the published library ({@code data/library/<series>/<chapter>/chapter.json}) read-only, by the same rule as
 * page serving ({@link LibraryFiles}): what the rule refuses is neither listed nor counted nor searched, and is
 * reported as skipped with why. Hidden folders (staging) and plain files are passed over silently. Series folders are
 * read by a few threads at once (one per core, at most {@link #MAX_WORKERS}); the result does not depend on how many.
 */
public final class LibraryScanner {

  /** The most threads one scan reads series folders with, whatever the number of cores. */
  public static final int MAX_WORKERS = 8;

  private final LibraryFiles files;
  private final int workers;

  /** A scanner with one worker per available core, at most {@link #MAX_WORKERS}. */
  public LibraryScanner(LibraryFiles files) {
    this(files, Math.min(MAX_WORKERS, Runtime.getRuntime().availableProcessors()));
  }

  /** @param workers how many threads read series folders at once (the calling thread is one of them), at least 1 */
  public LibraryScanner(LibraryFiles files, int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("a scan needs at least one worker, not " + workers);
    }
    this.files = files;
    this.workers = workers;
  }

  /** Every series with at least one published chapter, by title, and everything skipped. Blocking. */
  public LibraryScan scan() {
    return scan(entry -> { });
  }

  /** One series folder as read: its card and chapters' times when it lists any, and what it skipped. */
  private record SeriesRead(SeriesEntry entry, Map<String, Instant> published, List<LibraryScan.Skipped> skipped) {
  }

  /**
   * {@link #scan()}, handing each listed series to {@code found} as soon as its folder has been read (on the thread
   * that read it).
   */
  public LibraryScan scan(Consumer<SeriesEntry> found) {
    Path root = files.root();
    if (!Files.exists(root)) {
      return new LibraryScan(List.of(), List.of(), true);
    }
    List<Path> folders = files.entries(root, "library " + root);
    SeriesRead[] reads = new SeriesRead[folders.size()];
    // Chapter folder names repeat across series (chapter-0001...): kept once each, not once per series.
    Map<String, String> names = new ConcurrentHashMap<>();
    AtomicInteger next = new AtomicInteger();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Runnable work = () -> {
      try {
        for (int i = next.getAndIncrement(); i < reads.length && failure.get() == null; i = next.getAndIncrement()) {
          reads[i] = read(folders.get(i), names, found);
        }
      } catch (RuntimeException | Error e) {
        failure.compareAndSet(null, e instanceof RuntimeException r ? r : new IllegalStateException(e));
      }
    };
    List<Thread> helpers = new ArrayList<>();
    for (int i = 1; i < Math.min(workers, reads.length); i++) {
      Thread helper = new Thread(work, "mc-library-scan-" + i);
      helper.setDaemon(true);
      helper.start();
      helpers.add(helper);
    }
    work.run();
    joinAll(helpers);
    if (failure.get() != null) {
      throw failure.get();
    }
    List<SeriesEntry> series = new ArrayList<>();
    List<LibraryScan.Skipped> skipped = new ArrayList<>();
    Map<String, Set<String>> chapters = new HashMap<>();
    Map<String, Map<String, Instant>> published = new HashMap<>();
    for (SeriesRead read : reads) {
      skipped.addAll(read.skipped());
      if (read.entry() != null) {
        series.add(read.entry());
        chapters.put(read.entry().id(), read.published().keySet());
        published.put(read.entry().id(), read.published());
      }
    }
    series.sort(LibraryInventory.ORDER);
    return new LibraryScan(series, skipped, false, chapters, published);
  }

  private SeriesRead read(Path folder, Map<String, String> names, Consumer<SeriesEntry> found) {
    String id = folder.getFileName().toString();
    if (!LibraryFiles.validId(id)) {
      return new SeriesRead(null, null, List.of(new LibraryScan.Skipped(id, "not a plain folder name")));
    }
    LibraryFiles.Listing listing;
    try {
      listing = files.listing(id, false);
    } catch (LibraryFiles.NotFoundException e) {
      return new SeriesRead(null, null, List.of(new LibraryScan.Skipped(id, e.reason())));
    } catch (UncheckedIOException e) {
      return new SeriesRead(null, null, List.of(new LibraryScan.Skipped(id,
          "cannot be read (" + e.getCause().getClass().getSimpleName() + ")")));
    }
    if (listing.chapters().isEmpty()) {
      return new SeriesRead(null, null, listing.refused());
    }
    SeriesEntry entry = entry(id, listing.chapters());
    found.accept(entry);
    Map<String, Instant> times = new HashMap<>();
    listing.chapters().forEach(c -> times.put(names.computeIfAbsent(c.id(), n -> n),
        c.publishedAt() == null ? Instant.EPOCH : c.publishedAt()));
    return new SeriesRead(entry, Map.copyOf(times), listing.refused());
  }

  private static void joinAll(List<Thread> threads) {
    boolean interrupted = false;
    for (Thread thread : threads) {
      while (true) {
        try {
          thread.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;   // the helpers finish on their own; the scan's result is still wanted
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
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
