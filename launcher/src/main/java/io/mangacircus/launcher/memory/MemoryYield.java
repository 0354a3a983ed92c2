package io.mangacircus.launcher.memory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Memory-pressure yield with hysteresis and a cooldown: at or above the high watermark downloads pause; they resume
 * only below the low watermark and after the cooldown since the pause, whatever the backlog.
 */
public final class MemoryYield {

  /** What to do after a reading. */
  public enum Decision { NONE, PAUSE, RESUME }

  private final double high;
  private final double low;
  private final Duration cooldown;
  private final InstantSource clock;
  private boolean yielding;
  private Instant pausedAt;

  public MemoryYield(double highWatermarkPct, double lowWatermarkPct, Duration cooldown, InstantSource clock) {
    if (lowWatermarkPct >= highWatermarkPct) {
      throw new IllegalArgumentException("the low watermark must be below the high watermark");
    }
    this.high = highWatermarkPct;
    this.low = lowWatermarkPct;
    this.cooldown = cooldown;
    this.clock = clock;
  }

  /** Feeds one reading of used memory, in percent. */
  public Decision observe(double usedPct) {
    Instant now = clock.instant();
    if (!yielding) {
      if (usedPct >= high) {
        yielding = true;
        pausedAt = now;
        return Decision.PAUSE;
      }
      return Decision.NONE;
    }
    if (usedPct < low && !now.isBefore(pausedAt.plus(cooldown))) {
      yielding = false;
      return Decision.RESUME;
    }
    return Decision.NONE;
  }

  /** Whether downloads are yielding now. */
  public boolean yielding() {
    return yielding;
  }
}
