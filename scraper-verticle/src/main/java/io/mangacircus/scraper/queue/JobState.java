package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

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
    return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown job state '" + wire + "'"));
  }

  /** Whether the job still has work ahead that the system or operator can resume. */
  public boolean outstanding() {
    return this != DONE;
  }
}
