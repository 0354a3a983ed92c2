package io.mangacircus.scraper.failure;

import io.mangacircus.scraper.source.FetchOutcome;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.Locale;

/**
 * Turns fetch outcomes and I/O errors into {@link Failure}s, and failures into the action and limit of the table in
 * docs/resilience.md, "The table". Decides only; the caller acts.
 */
public final class FailureClassifier {

  /** Job-level retries allowed after network failures; the next one quarantines. */
  public static final int JOB_LEVEL_NETWORK_RETRIES = 1;

  private FailureClassifier() {
  }

  /** The failure a non-ok outcome stands for. */
  public static Failure classify(FetchOutcome<?> outcome) {
    if (outcome instanceof FetchOutcome.NetworkError<?> n) {
      return new Failure(FailureKind.NETWORK, null, n.message());
    } else if (outcome instanceof FetchOutcome.ServerError<?> s) {
      return new Failure(FailureKind.NETWORK, s.status(), s.message());
    } else if (outcome instanceof FetchOutcome.RateLimited<?> r) {
      return new Failure(FailureKind.ACCESS, 429, r.message() + " (retry after " + r.retryAfter().toSeconds() + " s)");
    } else if (outcome instanceof FetchOutcome.Held<?> h) {
      return new Failure(FailureKind.ACCESS, 429, outcome.describe());
    } else if (outcome instanceof FetchOutcome.CircuitOpen<?> c) {
      return new Failure(FailureKind.NETWORK, null, c.message());
    } else if (outcome instanceof FetchOutcome.AccessDenied<?> a) {
      return new Failure(FailureKind.ACCESS, a.status(), a.message());
    } else if (outcome instanceof FetchOutcome.NotFound<?> n) {
      return new Failure(FailureKind.UNAVAILABLE, 404, "not found: " + n.what());
    } else if (outcome instanceof FetchOutcome.ParseError<?> p) {
      return new Failure(FailureKind.PARSER, null, p.message());
    }
    return new Failure(FailureKind.UNKNOWN, null, "unexpected outcome: " + outcome);
  }

  /** The failure of a local file operation: storage when the disk refuses, unknown otherwise. */
  public static Failure classify(IOException error) {
    String text = String.valueOf(error.getMessage()).toLowerCase(Locale.ROOT);
    boolean storage = error instanceof AccessDeniedException || error instanceof FileSystemException
        || text.contains("no space") || text.contains("read-only") || text.contains("permission denied")
        || text.contains("quota") || text.contains("disk full");
    return new Failure(storage ? FailureKind.STORAGE : FailureKind.UNKNOWN, null, "storage: " + error);
  }

  /**
   * The action for a failure.
   *
   * @param networkRetriesUsed job-level retries already spent on network failures
   * @param stallsSoFar stalls already recovered for this job
   */
  public static FailureAction action(Failure failure, int networkRetriesUsed, int stallsSoFar) {
    return action(failure, networkRetriesUsed, stallsSoFar, RetryPolicy.DEFAULTS);
  }

  /** As above under a retry policy's job-level limits. */
  public static FailureAction action(Failure failure, int networkRetriesUsed, int stallsSoFar, RetryPolicy policy) {
    return switch (failure.kind()) {
      case NETWORK -> policy.retriesJob(networkRetriesUsed) ? FailureAction.RETRY_LATER : FailureAction.QUARANTINE;
      case UNAVAILABLE -> FailureAction.MARK_UNAVAILABLE;
      case PARSER -> FailureAction.QUARANTINE;
      case STORAGE -> FailureAction.PAUSE_ALL;
      case ACCESS -> FailureAction.PAUSE_LANE;
      case STALL -> policy.requeuesStall(stallsSoFar) ? FailureAction.REQUEUE : FailureAction.QUARANTINE;
      case CRASH -> FailureAction.REQUEUE;
      case UNKNOWN -> FailureAction.PAUSE_JOB;
    };
  }
}
