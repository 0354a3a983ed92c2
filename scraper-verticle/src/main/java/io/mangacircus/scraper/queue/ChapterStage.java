package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The forward-only stages of one chapter: [scheduled(5) | external(5)] → planned(10) → fetching(20) → staged(30) →
 * publishing(40) → published(50) | failed(60). Scheduled and external chapters are listed but not downloadable yet.
 */
public enum ChapterStage {
  /** The source releases it later; a later inspection that finds it released plans it. */
  SCHEDULED("scheduled", 5),
  /** The source only links to it elsewhere; nothing to download unless a later inspection finds it hosted. */
  EXTERNAL("external", 5),
  PLANNED("planned", 10),
  FETCHING("fetching", 20),
  STAGED("staged", 30),
  PUBLISHING("publishing", 40),
  PUBLISHED("published", 50),
  FAILED("failed", 60);

  /** {@link #values()} once: the queue file names one for every job or chapter it holds, read without a copy each. */
  private static final ChapterStage[] WIRE_ORDER = values();

  private final String wire;
  private final int rank;

  ChapterStage(String wire, int rank) {
    this.wire = wire;
    this.rank = rank;
  }

  @JsonValue
  public String wire() {
    return wire;
  }

  /** The stage's place in the lattice. */
  public int rank() {
    return rank;
  }

  /** Whether nothing more happens to the chapter. */
  public boolean terminal() {
    return this == PUBLISHED || this == FAILED;
  }

  /**
   * Whether the source offers nothing to download for now (scheduled or external): a job does not wait for it, and a
   * later inspection replaces it with what the source lists then.
   */
  public boolean awaitsSource() {
    return this == SCHEDULED || this == EXTERNAL;
  }

  /** Whether work on the chapter has begun and not ended: what startup recovery looks at. */
  public boolean open() {
    return this == FETCHING || this == STAGED || this == PUBLISHING;
  }

  @JsonCreator
  public static ChapterStage ofWire(String wire) {
    for (ChapterStage candidate : WIRE_ORDER) {
      if (candidate.wire.equals(wire)) {
        return candidate;
      }
    }
    throw new IllegalArgumentException("unknown chapter stage '" + wire + "'");
  }
}
