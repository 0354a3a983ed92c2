package io.mangacircus.scraper.state;

import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection for crash tests: with {@code -Dmangacircus.crashAt=<point>:<n>} the JVM halts (as abruptly as
 * {@code kill -9}: no shutdown hooks, no flushing) the n-th time it reaches {@code point}. Without the property every
 * call is a no-op. Points: {@code page.part-written}, {@code page.renamed}, {@code checkpoint.line-torn} (part of a
 * page's checkpoint line written and forced, the rest never), {@code publish.before-rename}, {@code publish.renamed}.
 */
public final class CrashPoints {

  private static final Logger LOG = LoggerFactory.getLogger(CrashPoints.class);
  private static final String SPEC = System.getProperty("mangacircus.crashAt", "");
  private static final String POINT;
  private static final int COUNT;
  private static final AtomicInteger HITS = new AtomicInteger();

  static {
    int colon = SPEC.lastIndexOf(':');
    POINT = colon > 0 ? SPEC.substring(0, colon) : SPEC;
    COUNT = colon > 0 ? Integer.parseInt(SPEC.substring(colon + 1)) : 1;
  }

  private CrashPoints() {
  }

  /** Marks that execution reached {@code point}. */
  public static void reach(String point) {
    if (due(point)) {
      halt(point);
    }
  }

  /**
   * Counts a hit of {@code point} and says whether the JVM is to halt there now, for a point that first leaves
   * something half done (then calls {@link #halt}).
   */
  public static boolean due(String point) {
    return !SPEC.isEmpty() && POINT.equals(point) && HITS.incrementAndGet() == COUNT;
  }

  /** Halts the JVM at once, as {@code kill -9} would. */
  public static void halt(String point) {
    LOG.error("[CRASHPOINT] halting at {} (hit {}) as -Dmangacircus.crashAt asked", point, COUNT);
    Runtime.getRuntime().halt(137);
  }
}
