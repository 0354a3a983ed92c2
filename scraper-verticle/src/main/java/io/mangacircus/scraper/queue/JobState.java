package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The explicit, persisted states of a download job (docs/architecture.md §4). */
public enum JobState {
  /** Needs its lane: inspection when not yet inspected, download when confirmed. */
  PENDING("pending"),
  /** Inspected and healthy, waiting for the operator to confirm the download; not a stall. */
  READY("ready"),
  /** Leased by its lane and downloading. */
  ACTIVE("active"),
  /** Stopped by the operator or by a failure that needs a person. */
  PAUSED("paused"),
  /** Waiting for {@code retryAt} after a network failure. */
  RETRY_WAIT("retry_wait"),
  /** The source says the title cannot be had (gone, no English chapters); never retried blindly. */
  UNAVAILABLE("unavailable"),
  /** Set aside after repeated or parser failures; partial data kept. */
  QUARANTINED("quarantined"),
  /** Every chapter published (or failed for good). */
  DONE("done");

  /** {@link #values()} once: the queue file names one for every job or chapter it holds, read without a copy each. */
  private static final JobState[] WIRE_ORDER = values();

  private final String wire;

  JobState(String wire) {
    this.wire = wire;
  }

  @JsonValue
  public String wire() {
    return wire;
  }

  @JsonCreator
  public static JobState ofWire(String wire) {
    for (JobState candidate : WIRE_ORDER) {
      if (candidate.wire.equals(wire)) {
        return candidate;
      }
    }
    throw new IllegalArgumentException("unknown job state '" + wire + "'");
  }

  /** Whether the job still has work ahead that the system or operator can resume. */
  public boolean outstanding() {
    return this != DONE;
  }
}
