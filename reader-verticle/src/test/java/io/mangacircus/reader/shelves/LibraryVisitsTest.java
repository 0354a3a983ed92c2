package io.mangacircus.reader.shelves;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.LibraryVisit;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "New since your last visit" rule with a clock the test moves, stored in a real reader database. */
class LibraryVisitsTest {

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock();

  /** One library page load of user 1 at the clock's time, as the route does it: the visit's cutoff. */
  private Instant load(ProgressStore db, long user) throws Exception {
    LibraryVisit visit = LibraryVisits.next(db.libraryVisit(user), clock.instant());
    db.saveLibraryVisit(user, visit);
    return visit.since();
  }

  @Test
  void chaptersPublishedSinceThePreviousVisitAreNewForTheWholeVisitAndNotOnTheNext() throws Exception {
    try (ReaderStores stores = ReaderStores.openSqlite(dir.resolve("reader.db"))) {
      ProgressStore db = stores.progress();
      long alice = stores.users().createUser("alice", "x", "reader", clock.instant());
      long bob = stores.users().createUser("bob", "x", "reader", clock.instant());
      Map<String, Instant> chapters = Map.of("c1", clock.instant().minus(Duration.ofDays(3)));

      Instant first = load(db, alice);
      assertThat(first).as("a first visit has nothing new").isNull();
      assertThat(ReadingCounts.of(chapters, Set.of(), first).newSince()).isZero();
      Instant firstVisitEnd = clock.instant();

      clock.advance(Duration.ofDays(1));
      Instant published = clock.instant();
      Map<String, Instant> withNew = Map.of("c1", chapters.get("c1"), "c2", published);
      clock.advance(Duration.ofHours(2));

      Instant second = load(db, alice);
      assertThat(second).as("the cutoff is the end of the previous visit").isEqualTo(firstVisitEnd);
      assertThat(ReadingCounts.of(withNew, Set.of(), second).newSince()).isEqualTo(1);

      clock.advance(Duration.ofMinutes(20));
      assertThat(load(db, alice)).as("a reload within the visit keeps the badge").isEqualTo(second);
      clock.advance(Duration.ofMinutes(25));
      assertThat(load(db, alice)).as("page loads 25 minutes apart are still one visit").isEqualTo(second);
      Instant lastOfSecondVisit = clock.instant();

      clock.advance(LibraryVisits.GAP.plusMinutes(1));
      Instant third = load(db, alice);
      assertThat(third).isEqualTo(lastOfSecondVisit);
      assertThat(ReadingCounts.of(withNew, Set.of(), third).newSince()).as("seen on the previous visit").isZero();

      assertThat(db.libraryVisit(bob)).as("each user's visits are their own").isEmpty();
    }
  }

  @Test
  void aClockThatWentBackDoesNotEndAVisitOrMoveItsLastTimeBack() {
    Instant at = Instant.parse("2026-11-29T10:00:00Z");
    LibraryVisit stored = new LibraryVisit(at.minus(Duration.ofDays(1)), at);

    LibraryVisit next = LibraryVisits.next(Optional.of(stored), at.minusSeconds(60));

    assertThat(next).isEqualTo(stored);
  }
}
