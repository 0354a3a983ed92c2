package io.mangacircus.reader.library;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The library inventory (docs/architecture.md §7): one shared background scan; callers get the last summary at once.
 * A publication event adds its one chapter without a scan ({@link #added}); a full scan runs on start, on an
 * operator's request ({@link #fresh}), after an invalidation, when an event was missed ({@link #published}) and, if
 * {@code maxAge} is set, when the summary is older; a failed scan is not retried on every poll; callers whose decision
 * must not duplicate work can wait for a scan that started after they asked.
 * A new list replaces the old one only when a scan completes, so a refresh never blanks it; a scan that finds the
 * library folder gone keeps the last list and reports an error. It can start from a previous inventory
 * ({@link #seed}) and hands every changed one to a keeper, so a restarted reader lists the library at once. Without
 * any inventory yet (a first start, or a kept one that could not be used) the series the first scan has found so far
 * are served, marked partial, rather than an empty list. No Vert.x here: scans run on the given executor.
 */
public final class LibraryInventory {

  private static final Logger LOG = LoggerFactory.getLogger(LibraryInventory.class);

  /** The order of the list: by title, case-insensitive, then by folder name. */
  public static final Comparator<SeriesEntry> ORDER = Comparator.comparing(SeriesEntry::title,
      String.CASE_INSENSITIVE_ORDER).thenComparing(SeriesEntry::id);

  /** What {@code libraryStatus} reports. */
  public enum Status {
    READY, REFRESHING, STALE, UPDATED, ERROR;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The last completed scan (or the previous inventory it started from), or none yet.
   *
   * @param skipped what the last completed scan skipped, each once (empty before the first scan of this process)
   * @param partial {@code series} is what the first scan has found so far (there was no inventory before it)
   */
  public record Summary(Status status, Instant scannedAt, List<SeriesEntry> series, String error,
      List<LibraryScan.Skipped> skipped, boolean partial) {
    public Summary {
      series = List.copyOf(series);
      skipped = List.copyOf(skipped);
    }

    /** This summary listing only {@code shown} (what one account sees of it). */
    public Summary showing(List<SeriesEntry> shown) {
      return shown == series ? this : new Summary(status, scannedAt, shown, error, skipped, partial);
    }
  }

  /** An inventory worth keeping across restarts: the series of a complete scan and when it ran. */
  public record Snapshot(Instant scannedAt, List<SeriesEntry> series) {
    public Snapshot {
      series = List.copyOf(series);
    }
  }

  private final Function<Consumer<SeriesEntry>, LibraryScan> scanner;
  private final Executor executor;
  private final InstantSource clock;
  private final Duration maxAge;
  private final Duration errorBackoff;
  private final InventoryKeeper keeper;

  private final InventoryList list = new InventoryList();
  private final SkippedEntries skipped = new SkippedEntries();
  private Instant scannedAt;
  private boolean scannedHere;
  private Instant failedAt;
  private String error;
  private boolean changedByLastScan;
  private boolean invalidated = true;
  private List<SeriesEntry> kept;
  /** Publications that arrived while a scan ran or before the first one: applied when it completes. */
  private final List<LibraryFiles.Chapter> pendingAdds = new ArrayList<>();
  private final PublicationSequence sequence = new PublicationSequence();
  private CompletableFuture<Summary> running;
  private final List<CompletableFuture<Summary>> waitingForFresh = new ArrayList<>();
  private final List<CompletableFuture<Summary>> waitingForFirst = new ArrayList<>();
  private final List<CompletableFuture<Summary>> waitingForAny = new ArrayList<>();
  private final FirstScanFinds foundSoFar = new FirstScanFinds();

  /**
   * @param scanner reads the library folder (blocking); throws on failure
   * @param executor where scans run (a worker pool)
   * @param maxAge a summary older than this is refreshed on the next request; null: never by age (publication events
   *     keep it current)
   * @param errorBackoff after a failed scan, no new scan before this has passed (60 s)
   */
  public LibraryInventory(Supplier<LibraryScan> scanner, Executor executor, InstantSource clock, Duration maxAge,
      Duration errorBackoff) {
    this(found -> scanner.get(), executor, clock, maxAge, errorBackoff);
  }

  /**
   * @param scanner reads the library folder (blocking), handing each series to the given consumer as soon as it has
   *     found it (any thread); throws on failure
   */
  public LibraryInventory(Function<Consumer<SeriesEntry>, LibraryScan> scanner, Executor executor,
      InstantSource clock, Duration maxAge, Duration errorBackoff) {
    this.scanner = scanner;
    this.executor = executor;
    this.clock = clock;
    this.maxAge = maxAge;
    this.errorBackoff = errorBackoff;
    this.keeper = new InventoryKeeper(executor);
  }

  /**
   * Starts from a previous inventory (kept by an earlier process): it is served at once, marked stale, until the first
   * scan of this process replaces it. Call before the first {@link #summary}.
   */
  public synchronized LibraryInventory seed(Snapshot previous) {
    list.seed(previous.series());
    scannedAt = previous.scannedAt();
    kept = previous.series();
    invalidated = true;
    return this;
  }

  /**
   * Hands every completed scan whose series differ from the last kept ones to {@code keeper}, on the scan's executor
   * (it may block); a keeper that throws is logged and the inventory goes on.
   */
  public synchronized LibraryInventory keepWith(Consumer<Snapshot> keeper) {
    this.keeper.keepWith(keeper);
    return this;
  }

  /** The last summary, at once; starts a background scan when it is due and none is running. */
  public synchronized Summary summary() {
    if (due()) {
      startScan();
    }
    return current();
  }

  /**
   * Completes at once when there is an inventory to show (a previous one, or any scan of this process completed),
   * else when the first scan completes, successfully or not. Starts that scan if it is due.
   */
  public synchronized CompletableFuture<Summary> firstAnswer() {
    Summary now = summary();
    if (scannedAt != null || scannedHere || error != null) {
      return CompletableFuture.completedFuture(now);
    }
    CompletableFuture<Summary> result = new CompletableFuture<>();
    waitingForFirst.add(result);
    return result;
  }

  /**
   * Like {@link #firstAnswer}, but also completes as soon as the first scan has found a series: a partial list to
   * show instead of an empty one.
   */
  public synchronized CompletableFuture<Summary> firstSeries() {
    CompletableFuture<Summary> first = firstAnswer();
    if (first.isDone() || foundSoFar.any()) {
      return CompletableFuture.completedFuture(current());
    }
    CompletableFuture<Summary> result = new CompletableFuture<>();
    waitingForAny.add(result);
    return result;
  }

  /** The running first scan found a series (called on the scan's thread). */
  private void foundSeries(SeriesEntry entry) {
    List<CompletableFuture<Summary>> waiting;
    Summary now;
    synchronized (this) {
      if (!foundSoFar.add(entry) || waitingForAny.isEmpty()) {
        return;
      }
      waiting = new ArrayList<>(waitingForAny);
      waitingForAny.clear();
      now = current();
    }
    waiting.forEach(w -> w.complete(now));
  }

  /**
   * The chapters of every listed series with when each was published ({@link Instant#EPOCH} when unknown), as the last
   * scan and later publications found them; null before this process completed a scan (a kept inventory has no
   * chapter ids).
   */
  public synchronized Map<String, Map<String, Instant>> chapterTimes() {
    return list.chapterTimes();
  }

  /** The series with this id as the list served now has it (a first scan's partial list included). */
  public synchronized Optional<SeriesEntry> entry(String id) {
    SeriesEntry entry = list.entry(id);
    if (entry == null && foundSoFar.collecting() && list.series().isEmpty()) {
      return foundSoFar.sorted().stream().filter(e -> e.id().equals(id)).findFirst();
    }
    return Optional.ofNullable(entry);
  }

  /** A publication or metadata change: the next request refreshes, whatever the summary's age. */
  public synchronized void invalidate() {
    invalidated = true;
  }

  /** Completes with a summary from a scan that started after this call (for decisions that must not duplicate work). */
  public synchronized CompletableFuture<Summary> fresh() {
    CompletableFuture<Summary> result = new CompletableFuture<>();
    waitingForFresh.add(result);
    invalidated = true;
    if (running == null) {
      startScan();
    }
    return result;
  }

  private boolean due() {
    if (running != null) {
      return false;
    }
    Instant now = clock.instant();
    if (failedAt != null && now.isBefore(failedAt.plus(errorBackoff))) {
      return false;
    }
    return invalidated || scannedAt == null || maxAge != null && !now.isBefore(scannedAt.plus(maxAge));
  }

  /**
   * A publication event arrived: judges its sequence number and, when an event was missed (a gap, or another scraper
   * instance), starts a full scan. The event's chapter is then given to {@link #added} either way.
   */
  public synchronized PublicationSequence.Verdict published(String instance, long seq) {
    PublicationSequence.Verdict verdict = sequence.next(instance, seq);
    if (verdict == PublicationSequence.Verdict.MISSED) {
      LOG.info("[LIBRARY] publication {} of scraper {} does not follow the last one seen; rescanning the library", seq,
          instance);
      invalidated = true;
      if (running == null) {
        startScan();
      } else {
        // The running scan may have listed the series before the missed chapter arrived.
        waitingForFresh.add(new CompletableFuture<>());
      }
    }
    return verdict;
  }

  /**
   * Adds one published chapter (already admitted by the library's rule) to the list without a scan: its series gets one
   * more chapter, or appears. A chapter already counted is not counted again; while a scan runs (or before the first
   * one) the chapter waits for it.
   */
  public void added(LibraryFiles.Chapter chapter) {
    synchronized (this) {
      if (running != null || !list.counted()) {
        pendingAdds.add(chapter);
        return;
      }
      if (!addAll(List.of(chapter))) {
        return;
      }
      keeper.keepLater(keepIfChanged(clock.instant()));
    }
  }

  /** Adds the chapters not counted yet to the list ({@link InventoryList#addAll}); returns whether any was. */
  private boolean addAll(List<LibraryFiles.Chapter> chapters) {
    boolean added = list.addAll(chapters);
    changedByLastScan |= added;
    return added;
  }

  private Snapshot keepIfChanged(Instant now) {
    if (list.series().equals(kept)) {
      return null;
    }
    kept = list.series();
    return new Snapshot(scannedAt == null ? now : scannedAt, kept);
  }

  private Summary current() {
    Status status;
    if (running != null) {
      status = Status.REFRESHING;
    } else if (error != null) {
      status = Status.ERROR;
    } else if (scannedAt == null || invalidated
        || maxAge != null && !clock.instant().isBefore(scannedAt.plus(maxAge))) {
      status = Status.STALE;
    } else {
      status = changedByLastScan ? Status.UPDATED : Status.READY;
    }
    if (foundSoFar.collecting() && list.series().isEmpty()) {
      return new Summary(status, scannedAt, foundSoFar.sorted(), error, skipped.all(), true);
    }
    return new Summary(status, scannedAt, list.series(), error, skipped.all(), false);
  }

  private void startScan() {
    invalidated = false;
    List<CompletableFuture<Summary>> waiters = new ArrayList<>(waitingForFresh);
    waitingForFresh.clear();
    CompletableFuture<Summary> scan = new CompletableFuture<>();
    running = scan;
    // Only a scan with nothing to show meanwhile collects what it finds: a rescan keeps serving the last list.
    foundSoFar.start(scannedAt == null && list.series().isEmpty());
    Consumer<SeriesEntry> progress = foundSoFar.collecting() ? this::foundSeries : entry -> { };
    executor.execute(() -> {
      LibraryScan result = null;
      RuntimeException failure = null;
      long started = System.nanoTime();
      try {
        result = scanner.apply(progress);
      } catch (RuntimeException e) {
        failure = e;
      }
      if (result != null && !result.folderMissing()) {
        LOG.info("[LIBRARY] library scanned in {} ms: {} series, {} chapters, {} entries skipped",
            (System.nanoTime() - started) / 1_000_000, result.series().size(),
            result.series().stream().mapToLong(SeriesEntry::chapters).sum(), result.skipped().size());
      }
      finish(result, failure, waiters);
    });
  }

  private void finish(LibraryScan found, RuntimeException failure, List<CompletableFuture<Summary>> waiters) {
    Summary summary;
    List<LibraryScan.Skipped> newlySkipped = List.of();
    List<CompletableFuture<Summary>> first;
    synchronized (this) {
      Instant now = clock.instant();
      if (failure == null && found.folderMissing() && !list.series().isEmpty()) {
        error = "the library folder is missing; showing the last inventory until it is back";
        failedAt = now;
      } else if (failure == null) {
        changedByLastScan = scannedAt != null && !found.series().equals(list.series());
        newlySkipped = skipped.replace(found.skipped());
        scannedAt = now;
        scannedHere = true;
        error = null;
        failedAt = null;
        list.replace(found);
        addAll(pendingAdds);
        pendingAdds.clear();
        keeper.keepLater(keepIfChanged(now));
      } else {
        error = String.valueOf(failure.getMessage());
        failedAt = now;
      }
      running = null;
      foundSoFar.stop();
      summary = current();
      first = new ArrayList<>(waitingForFirst);
      waitingForFirst.clear();
      first.addAll(waitingForAny);
      waitingForAny.clear();
      if (!waitingForFresh.isEmpty()) {
        // Someone asked for a fresh inventory while this scan ran: it may have missed their change.
        startScan();
      }
    }
    if (failure != null) {
      LOG.warn("[LIBRARY] the library scan failed: {}", failure.getMessage());
    } else if (found.folderMissing() && error != null) {
      LOG.warn("[LIBRARY] {}", error);
    }
    SkippedEntries.log(newlySkipped);
    waiters.forEach(w -> w.complete(summary));
    first.forEach(w -> w.complete(summary));
  }
}
