package io.mangacircus.reader.library;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

  /** Newly skipped entries logged one per line per scan; the rest are summed up in one more line. */
  static final int LOGGED_SKIPS = 20;

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
  private Consumer<Snapshot> keeper = snapshot -> { };

  private List<SeriesEntry> series = List.of();
  private List<LibraryScan.Skipped> skipped = List.of();
  private Instant scannedAt;
  private boolean scannedHere;
  private Instant failedAt;
  private String error;
  private boolean changedByLastScan;
  private boolean invalidated = true;
  private List<SeriesEntry> kept;
  /**
   * When each chapter was published, by series id then chapter id, as the last scan and later publications found
   * them (its keys are the chapter folders counted: one map for both, 100,000 chapters are a lot of entries); null
   * before the first scan.
   */
  private Map<String, Map<String, Instant>> chapterTimes;
  /** The listed series by id (so that a publication finds its series' place without going through the list). */
  private Map<String, SeriesEntry> byId = Map.of();
  /** The newest inventory to hand to the keeper once the write under way is done; null when there is none. */
  private Snapshot keepPending;
  /** Whether a keeper write is under way or about to start (one at a time, the newest inventory last). */
  private boolean keeping;
  /** Publications that arrived while a scan ran or before the first one: applied when it completes. */
  private final List<LibraryFiles.Chapter> pendingAdds = new ArrayList<>();
  private final PublicationSequence sequence = new PublicationSequence();
  private CompletableFuture<Summary> running;
  private final List<CompletableFuture<Summary>> waitingForFresh = new ArrayList<>();
  private final List<CompletableFuture<Summary>> waitingForFirst = new ArrayList<>();
  private final List<CompletableFuture<Summary>> waitingForAny = new ArrayList<>();
  /** The series the running first scan has found so far, in the order found; null when no such scan runs. */
  private List<SeriesEntry> foundSoFar;
  /** {@link #foundSoFar} in list order, as last served: sorted again only when more were found. */
  private List<SeriesEntry> foundSorted = List.of();

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
  }

  /**
   * Starts from a previous inventory (kept by an earlier process): it is served at once, marked stale, until the first
   * scan of this process replaces it. Call before the first {@link #summary}.
   */
  public synchronized LibraryInventory seed(Snapshot previous) {
    series = previous.series();
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
    this.keeper = keeper;
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
    if (first.isDone() || foundSoFar != null && !foundSoFar.isEmpty()) {
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
      if (foundSoFar == null) {
        return;
      }
      foundSoFar.add(entry);
      if (waitingForAny.isEmpty()) {
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
    // A view, not a copy (10,000 series per request): the map is concurrent and its values are immutable.
    return chapterTimes == null ? null : java.util.Collections.unmodifiableMap(chapterTimes);
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
      if (running != null || chapterTimes == null) {
        pendingAdds.add(chapter);
        return;
      }
      if (!addAll(List.of(chapter))) {
        return;
      }
      keepLater(keepIfChanged(clock.instant()));
    }
  }

  /**
   * Adds the chapters not counted yet to the list: each series keeps its place (its title does not change) or a new one
   * is put in its place by {@link #ORDER}; the list is copied once for all of them, never sorted again.
   *
   * @return whether any was added
   */
  private boolean addAll(List<LibraryFiles.Chapter> chapters) {
    List<SeriesEntry> next = null;
    for (LibraryFiles.Chapter chapter : chapters) {
      Map<String, Instant> known = chapterTimes.getOrDefault(chapter.seriesId(), Map.of());
      if (known.containsKey(chapter.id())) {
        continue;
      }
      Instant at = chapter.publishedAt() == null ? Instant.EPOCH : chapter.publishedAt();
      Map<String, Instant> times = new HashMap<>(known);
      times.put(chapter.id(), at);
      chapterTimes.put(chapter.seriesId(), Map.copyOf(times));
      if (next == null) {
        next = new ArrayList<>(series);
      }
      SeriesEntry old = byId.get(chapter.seriesId());
      SeriesEntry entry;
      if (old == null) {
        entry = new SeriesEntry(chapter.seriesId(), chapter.seriesTitle(), chapter.source(), chapter.titleId(), 1, at);
        int place = java.util.Collections.binarySearch(next, entry, ORDER);
        next.add(place < 0 ? -place - 1 : place, entry);
      } else {
        entry = new SeriesEntry(old.id(), old.title(), old.source(), old.titleId(), old.chapters() + 1,
            at.isAfter(old.updatedAt()) ? at : old.updatedAt());
        int place = java.util.Collections.binarySearch(next, old, ORDER);
        next.set(place >= 0 ? place : next.indexOf(old), entry);
      }
      byId.put(entry.id(), entry);
    }
    if (next == null) {
      return false;
    }
    series = List.copyOf(next);
    changedByLastScan = true;
    return true;
  }

  /**
   * Hands {@code snapshot} (if any) to the keeper on the executor, one write at a time: inventories that arrive while a
   * write is under way are coalesced, and only the newest of them is written next (a burst of publications is one or
   * two writes, never one per chapter, and an older inventory never overwrites a newer one).
   */
  private void keepLater(Snapshot snapshot) {
    if (snapshot == null) {
      return;
    }
    keepPending = snapshot;
    if (keeping) {
      return;
    }
    keeping = true;
    executor.execute(this::keepPendingOnes);
  }

  private void keepPendingOnes() {
    while (true) {
      Snapshot snapshot;
      synchronized (this) {
        snapshot = keepPending;
        keepPending = null;
        if (snapshot == null) {
          keeping = false;
          return;
        }
      }
      keep(snapshot);
    }
  }

  private Snapshot keepIfChanged(Instant now) {
    if (series.equals(kept)) {
      return null;
    }
    kept = series;
    return new Snapshot(scannedAt == null ? now : scannedAt, series);
  }

  private void keep(Snapshot snapshot) {
    try {
      keeper.accept(snapshot);
    } catch (RuntimeException e) {
      LOG.warn("[LIBRARY] the inventory could not be kept for the next start: {}", e.getMessage());
    }
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
    if (foundSoFar != null && series.isEmpty()) {
      if (foundSorted.size() != foundSoFar.size()) {
        List<SeriesEntry> sorted = new ArrayList<>(foundSoFar);
        sorted.sort(ORDER);
        foundSorted = List.copyOf(sorted);
      }
      return new Summary(status, scannedAt, foundSorted, error, skipped, true);
    }
    return new Summary(status, scannedAt, series, error, skipped, false);
  }

  private void startScan() {
    invalidated = false;
    List<CompletableFuture<Summary>> waiters = new ArrayList<>(waitingForFresh);
    waitingForFresh.clear();
    CompletableFuture<Summary> scan = new CompletableFuture<>();
    running = scan;
    // Only a scan with nothing to show meanwhile collects what it finds: a rescan keeps serving the last list.
    foundSoFar = scannedAt == null && series.isEmpty() ? new ArrayList<>() : null;
    foundSorted = List.of();
    Consumer<SeriesEntry> progress = foundSoFar == null ? entry -> { } : this::foundSeries;
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
      if (failure == null && found.folderMissing() && !series.isEmpty()) {
        error = "the library folder is missing; showing the last inventory until it is back";
        failedAt = now;
      } else if (failure == null) {
        changedByLastScan = scannedAt != null && !found.series().equals(series);
        series = found.series();
        Set<LibraryScan.Skipped> before = new HashSet<>(skipped);
        newlySkipped = found.skipped().stream().filter(s -> !before.contains(s)).toList();
        skipped = found.skipped();
        scannedAt = now;
        scannedHere = true;
        error = null;
        failedAt = null;
        chapterTimes = new java.util.concurrent.ConcurrentHashMap<>();
        found.chapters().forEach((id, chapters) -> {
          Map<String, Instant> known = found.published().getOrDefault(id, Map.of());
          if (known.size() == chapters.size() && known.keySet().containsAll(chapters)) {
            chapterTimes.put(id, Map.copyOf(known));   // the scan's own immutable map: kept as it is, not rebuilt
            return;
          }
          Map<String, Instant> times = new HashMap<>();
          chapters.forEach(c -> times.put(c, known.getOrDefault(c, Instant.EPOCH)));
          chapterTimes.put(id, Map.copyOf(times));
        });
        byId = new HashMap<>();
        series.forEach(e -> byId.put(e.id(), e));
        addAll(pendingAdds);
        pendingAdds.clear();
        keepLater(keepIfChanged(now));
      } else {
        error = String.valueOf(failure.getMessage());
        failedAt = now;
      }
      running = null;
      foundSoFar = null;
      foundSorted = List.of();
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
    logSkipped(newlySkipped);
    waiters.forEach(w -> w.complete(summary));
    first.forEach(w -> w.complete(summary));
  }

  /** Each entry once when it is first skipped, not on every scan; again only if it was fine in between. */
  private static void logSkipped(List<LibraryScan.Skipped> newlySkipped) {
    newlySkipped.stream().limit(LOGGED_SKIPS)
        .forEach(s -> LOG.warn("[LIBRARY] skipped {}: {}", s.entry(), s.reason()));
    if (newlySkipped.size() > LOGGED_SKIPS) {
      LOG.warn("[LIBRARY] skipped {} more entries (the health page lists them)", newlySkipped.size() - LOGGED_SKIPS);
    }
  }
}
