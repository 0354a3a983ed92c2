package io.mangacircus.reader.library;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.contracts.rating.SeriesRating;
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
 * reported as skipped with why. Hidden folders (staging) and plain files are passed over silently. The first scan reads
 * series folders with a few threads at once (one per core, at most {@link #MAX_WORKERS}): a reader without a kept
 * inventory lists nothing until it is done. Later scans (rescans) use {@link #RESCAN_WORKERS}. The result does not
 * depend on how many.
 */
public final class LibraryScanner {

  /** The most threads one scan reads series folders with, whatever the number of cores. */
  public static final int MAX_WORKERS = 8;
  /**
   * How many threads a scan after the first reads with. A rescan reads every manifest and checks every page again,
   * ≈ 850 MB of short-lived objects at 100,000 chapters; read by one thread it takes longer (well inside its target of
   * 1.5x {@code find | xargs cat}) and makes that garbage at half the rate, and G1 grows the heap by how much of its
   * time goes to collecting (docs/benchmarks.md, the library scan).
   */
  public static final int RESCAN_WORKERS = 1;

  private final LibraryFiles files;
  private final int workers;
  private final int rescanWorkers;
  private final java.util.concurrent.atomic.AtomicBoolean scanned = new java.util.concurrent.atomic.AtomicBoolean();

  /** A scanner with one worker per available core, at most {@link #MAX_WORKERS}, and {@link #RESCAN_WORKERS}. */
  public LibraryScanner(LibraryFiles files) {
    this(files, Math.min(MAX_WORKERS, Runtime.getRuntime().availableProcessors()), RESCAN_WORKERS);
  }

  /** @param workers how many threads read series folders at once in every scan (the calling thread is one of them) */
  public LibraryScanner(LibraryFiles files, int workers) {
    this(files, workers, workers);
  }

  /**
   * @param workers how many threads read series folders at once in the first scan (the calling thread is one)
   * @param rescanWorkers how many in every later scan
   */
  public LibraryScanner(LibraryFiles files, int workers, int rescanWorkers) {
    if (workers < 1 || rescanWorkers < 1) {
      throw new IllegalArgumentException("a scan needs at least one worker, not " + Math.min(workers, rescanWorkers));
    }
    this.files = files;
    this.workers = workers;
    this.rescanWorkers = rescanWorkers;
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
    List<Path> folders = LibraryPaths.entries(root, "library " + root);
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
    int threads = scanned.getAndSet(true) ? rescanWorkers : workers;
    for (int i = 1; i < Math.min(threads, reads.length); i++) {
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

  /**
   * The card of a series: its title is the first chapter's, as on the series page; its rating is the source's, as the
   * newest rated chapter recorded it ({@link #sourceRating}).
   */
  static SeriesEntry entry(String id, List<LibraryFiles.Chapter> chapters) {
    LibraryFiles.Chapter first = chapters.get(0);
    // A chapter without a publication time still counts; it just does not move "recently updated".
    Instant newest = chapters.stream().map(LibraryFiles.Chapter::publishedAt).filter(Objects::nonNull)
        .max(Instant::compareTo).orElse(Instant.EPOCH);
    AgeRating rating = SeriesRating.decide(null, sourceRating(chapters), null).rating();
    return new SeriesEntry(id, first.seriesTitle(), first.source(), first.titleId(), chapters.size(), newest,
        SeriesEntry.DOWNLOADS, rating);
  }

  /**
   * The source's rating of a series as its chapters recorded it: the most recently published rated chapter's, since
   * a source may rate a title again and each chapter keeps the rating of its day; chapters without one (published
   * before the scraper kept ratings, or by a source without them) say nothing. Unrated when none has one.
   */
  static AgeRating sourceRating(List<LibraryFiles.Chapter> chapters) {
    LibraryFiles.Chapter newest = null;
    for (LibraryFiles.Chapter chapter : chapters) {
      if (chapter.sourceRating().rated() && (newest == null || later(chapter.publishedAt(), newest.publishedAt()))) {
        newest = chapter;
      }
    }
    return newest == null ? AgeRating.UNRATED : newest.sourceRating();
  }

  /** Whether {@code a} is after {@code b}, an unknown time being before every known one. */
  static boolean later(Instant a, Instant b) {
    return a != null && (b == null || a.isAfter(b));
  }
}
