package io.mangacircus.launcher.memory;

/**
 * Decides when the C heap is trimmed: on the fixed interval, right after an idle compaction, and in any idle interval in
 * which the resident set grew since the last trim (a JIT compilation in an idle process leaves its arena memory behind).
 */
public final class NativeTrimSchedule {

  /** Growth of the resident set since the last trim that an idle interval hands back, in bytes. */
  public static final long IDLE_GROWTH_BYTES = 1L << 20;

  private final long everyNanos;
  private final long idleGrowthBytes;
  private long lastTrimNanos;
  private long residentAfterTrim = -1;

  public NativeTrimSchedule(long everyNanos, long idleGrowthBytes, long startNanos) {
    this.everyNanos = everyNanos;
    this.idleGrowthBytes = idleGrowthBytes;
    this.lastTrimNanos = startNanos;
  }

  /**
   * Takes one interval's reading.
   *
   * @param nowNanos the monotonic time now
   * @param idle whether the process was idle over the interval that just ended
   * @param compacted whether the heap was compacted in this interval
   * @param residentBytes the resident set now, or -1 when it cannot be read
   * @return true when the C heap should be trimmed now
   */
  public boolean trimNow(long nowNanos, boolean idle, boolean compacted, long residentBytes) {
    if (compacted || nowNanos - lastTrimNanos >= everyNanos) {
      return true;
    }
    return idle && (residentBytes < 0 || residentAfterTrim < 0 || residentBytes - residentAfterTrim >= idleGrowthBytes);
  }

  /** Records a trim that ended at {@code nowNanos} with {@code residentBytes} resident (-1 when unknown). */
  public void trimmed(long nowNanos, long residentBytes) {
    lastTrimNanos = nowNanos;
    residentAfterTrim = residentBytes;
  }
}
