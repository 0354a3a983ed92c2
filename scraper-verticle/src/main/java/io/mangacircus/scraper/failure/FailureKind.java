package io.mangacircus.scraper.failure;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The classes of failure docs/resilience.md ("The table") distinguishes; each has one action and one limit. */
public enum FailureKind {
  /** No answer, reset, timeout, HTTP 5xx: keep the checkpoint, circuit, {@code retry_wait}; one job-level retry. */
  NETWORK("network"),
  /** The title is gone or has no English chapters: {@code unavailable}, no blind retry. */
  UNAVAILABLE("unavailable"),
  /** The adapter does not understand the answer (markup, not an image): quarantine; 2 jobs/hour pause the lane. */
  PARSER("parser"),
  /** No space, permission denied, read-only: pause all downloads, no automatic retry. */
  STORAGE("storage"),
  /** 401, 403, 429 or a challenge page: pause that source's lane, no retry, never a bypass. */
  ACCESS("access"),
  /** No progress for the stall window: requeue once, then quarantine. */
  STALL("stall"),
  /** A lane or service crashed (handled by supervision, recorded for the history). */
  CRASH("crash"),
  /** Anything else: pause the job with an incident, never retried silently. */
  UNKNOWN("unknown");

  /** {@link #values()} once: the queue file names one for every job or chapter it holds, read without a copy each. */
  private static final FailureKind[] WIRE_ORDER = values();

  private final String wire;

  FailureKind(String wire) {
    this.wire = wire;
  }

  @JsonValue
  public String wire() {
    return wire;
  }

  @JsonCreator
  public static FailureKind ofWire(String wire) {
    for (FailureKind candidate : WIRE_ORDER) {
      if (candidate.wire.equals(wire)) {
        return candidate;
      }
    }
    throw new IllegalArgumentException("unknown failure kind '" + wire + "'");
  }
}
