package io.mangacircus.reader.library;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the last completed scan skipped, and the log of it: each entry once when it is first skipped, not on every
 * scan; again only if it was fine in between. Not thread-safe: the inventory guards it with its own lock.
 */
final class SkippedEntries {

  /** The inventory's own logger: these lines are about its scans. */
  private static final Logger LOG = LoggerFactory.getLogger(LibraryInventory.class);

  /** Newly skipped entries logged one per line per scan; the rest are summed up in one more line. */
  static final int LOGGED_SKIPS = 20;

  private List<LibraryScan.Skipped> skipped = List.of();

  /** What the last completed scan skipped, each once (empty before the first scan of this process). */
  List<LibraryScan.Skipped> all() {
    return skipped;
  }

  /** A completed scan's skipped entries in place of the last ones; returns those not skipped last time. */
  List<LibraryScan.Skipped> replace(List<LibraryScan.Skipped> found) {
    Set<LibraryScan.Skipped> before = new HashSet<>(skipped);
    skipped = found;
    return found.stream().filter(s -> !before.contains(s)).toList();
  }

  /** Logs newly skipped entries: {@link #LOGGED_SKIPS} one a line, the rest summed up. */
  static void log(List<LibraryScan.Skipped> newlySkipped) {
    newlySkipped.stream().limit(LOGGED_SKIPS)
        .forEach(s -> LOG.warn("[LIBRARY] skipped {}: {}", s.entry(), s.reason()));
    if (newlySkipped.size() > LOGGED_SKIPS) {
      LOG.warn("[LIBRARY] skipped {} more entries (the health page lists them)", newlySkipped.size() - LOGGED_SKIPS);
    }
  }
}
