package io.mangacircus.launcher.memory;

/**
 * Decides when an idle process compacts its heap once: the first quiet interval (process CPU under a share of one core)
 * after the process worked, so each busy period ends with one full collection and no idle process runs another; and
 * when the tight heap sizing of the idle process gives way to the busy one again (the first busy interval after).
 */
public final class IdleCompaction {

  /** A process that used less than this share of one core over an interval counts as idle for it. */
  public static final double IDLE_CPU_SHARE = 0.05;

  private final double idleShare;
  private boolean workedSinceLastCompaction = true;   // start-up is work: its garbage is compacted too
  private boolean idleSizing;
  private boolean busySizingDue;

  public IdleCompaction(double idleShare) {
    this.idleShare = idleShare;
  }

  /**
   * Takes one interval's reading.
   *
   * @param cpuNanos the process's CPU time over the interval, every thread
   * @param intervalNanos the interval's length
   * @return true when the heap should be compacted now: the interval was idle and the process worked since the last
   *     compaction
   */
  public boolean compactNow(long cpuNanos, long intervalNanos) {
    boolean idle = intervalNanos > 0 && cpuNanos < idleShare * intervalNanos;
    if (!idle) {
      workedSinceLastCompaction = true;
      if (idleSizing) {
        idleSizing = false;
        busySizingDue = true;
      }
      return false;
    }
    if (!workedSinceLastCompaction) {
      return false;
    }
    workedSinceLastCompaction = false;
    idleSizing = true;
    return true;
  }

  /**
   * True once, after the first busy interval that follows a compaction: the heap sizing the compaction tightened for
   * the idle process is to be put back.
   */
  public boolean takeBusySizing() {
    boolean due = busySizingDue;
    busySizingDue = false;
    return due;
  }
}
