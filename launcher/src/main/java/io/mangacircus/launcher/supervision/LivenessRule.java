package io.mangacircus.launcher.supervision;

/** Turns a run of consecutive failed liveness pings into one service failure. */
public final class LivenessRule {

  private final int missesAllowed;
  private int consecutiveMisses;

  /** @param missesBeforeFailure consecutive failed pings that make one failure (3 by default) */
  public LivenessRule(int missesBeforeFailure) {
    if (missesBeforeFailure < 1) {
      throw new IllegalArgumentException("missesBeforeFailure must be at least 1");
    }
    this.missesAllowed = missesBeforeFailure;
  }

  /** A ping was answered: the run of misses ends. */
  public void answered() {
    consecutiveMisses = 0;
  }

  /** A ping failed; true when this miss completes a run that counts as a failure (the run then restarts). */
  public boolean missed() {
    consecutiveMisses++;
    if (consecutiveMisses >= missesAllowed) {
      consecutiveMisses = 0;
      return true;
    }
    return false;
  }

  /** Misses in the current run. */
  public int consecutiveMisses() {
    return consecutiveMisses;
  }
}
