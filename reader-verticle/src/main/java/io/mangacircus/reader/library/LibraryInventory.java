package io.mangacircus.reader.library;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The library inventory as ARCHITECTURE §7 wants it: one shared background scan; callers get the last summary at once;
 * it refreshes at most once per {@code maxAge} unless a publication invalidates it; a failed scan is not retried on
 * every poll; callers whose decision must not duplicate work can wait for a scan that started after they asked.
 * No Vert.x here: scans run on the given executor.
 */
public final class LibraryInventory {

  /** What {@code libraryStatus} reports. */
  public enum Status {
    READY, REFRESHING, STALE, UPDATED, ERROR;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The last completed scan, or none yet. */
  public record Summary(Status status, Instant scannedAt, List<SeriesEntry> series, String error) {
    public Summary {
      series = List.copyOf(series);
    }
  }

  private final Supplier<List<SeriesEntry>> scanner;
  private final Executor executor;
  private final InstantSource clock;
  private final Duration maxAge;
  private final Duration errorBackoff;

  private List<SeriesEntry> series = List.of();
  private Instant scannedAt;
  private Instant failedAt;
  private String error;
  private boolean changedByLastScan;
  private boolean invalidated = true;
  private CompletableFuture<Summary> running;
  private final List<CompletableFuture<Summary>> waitingForFresh = new ArrayList<>();

  /**
   * @param scanner reads the library folder (blocking); throws on failure
   * @param executor where scans run (a worker pool)
   * @param maxAge a summary older than this is refreshed on the next request (60 s)
   * @param errorBackoff after a failed scan, no new scan before this has passed (60 s)
   */
  public LibraryInventory(Supplier<List<SeriesEntry>> scanner, Executor executor, InstantSource clock, Duration maxAge,
      Duration errorBackoff) {
    this.scanner = scanner;
    this.executor = executor;
    this.clock = clock;
    this.maxAge = maxAge;
    this.errorBackoff = errorBackoff;
  }

  /** The last summary, at once; starts a background scan when it is due and none is running. */
  public synchronized Summary summary() {
    if (due()) {
      startScan();
    }
    return current();
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
    return invalidated || scannedAt == null || !now.isBefore(scannedAt.plus(maxAge));
  }

  private Summary current() {
    Status status;
    if (running != null) {
      status = Status.REFRESHING;
    } else if (error != null) {
      status = Status.ERROR;
    } else if (scannedAt == null || invalidated || !clock.instant().isBefore(scannedAt.plus(maxAge))) {
      status = Status.STALE;
    } else {
      status = changedByLastScan ? Status.UPDATED : Status.READY;
    }
    return new Summary(status, scannedAt, series, error);
  }

  private void startScan() {
    invalidated = false;
    List<CompletableFuture<Summary>> waiters = new ArrayList<>(waitingForFresh);
    waitingForFresh.clear();
    CompletableFuture<Summary> scan = new CompletableFuture<>();
    running = scan;
    executor.execute(() -> {
      List<SeriesEntry> found = null;
      RuntimeException failure = null;
      try {
        found = scanner.get();
      } catch (RuntimeException e) {
        failure = e;
      }
      finish(found, failure, waiters);
    });
  }

  private void finish(List<SeriesEntry> found, RuntimeException failure, List<CompletableFuture<Summary>> waiters) {
    Summary summary;
    synchronized (this) {
      Instant now = clock.instant();
      if (failure == null) {
        changedByLastScan = scannedAt != null && !found.equals(series);
        series = List.copyOf(found);
        scannedAt = now;
        error = null;
        failedAt = null;
      } else {
        error = String.valueOf(failure.getMessage());
        failedAt = now;
      }
      running = null;
      summary = current();
      if (!waitingForFresh.isEmpty()) {
        // Someone asked for a fresh inventory while this scan ran: it may have missed their change.
        startScan();
      }
    }
    waiters.forEach(w -> w.complete(summary));
  }
}
