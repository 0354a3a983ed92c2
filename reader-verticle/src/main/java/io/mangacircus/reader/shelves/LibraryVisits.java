package io.mangacircus.reader.shelves;

import io.mangacircus.reader.store.LibraryVisit;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The rule of the library's "New" badges (docs/api.md, "Reading summary"): a visit is a run of library page loads
 * with no gap longer than {@link #GAP}; during a visit, chapters published after the end of the previous visit are new.
 * So the badge shows on the visit where a reader first sees the chapters, survives reloads and polls of that visit, and
 * is gone on the next one. A first visit has nothing new. No Vert.x, no clock of its own.
 */
public final class LibraryVisits {

  /** Library page loads closer together than this belong to one visit. */
  public static final Duration GAP = Duration.ofMinutes(30);

  private LibraryVisits() {
  }

  /** The visit after a library page load at {@code now}, given the stored one. */
  public static LibraryVisit next(Optional<LibraryVisit> stored, Instant now) {
    if (stored.isEmpty()) {
      return new LibraryVisit(null, now);
    }
    LibraryVisit last = stored.get();
    if (now.isBefore(last.lastAt().plus(GAP))) {
      return new LibraryVisit(last.since(), now.isAfter(last.lastAt()) ? now : last.lastAt());
    }
    return new LibraryVisit(last.lastAt(), now);
  }
}
